// One poll of `bookings watch` (and the one of `bookings changes`): a walk of the list compared with
// the snapshot, booking by booking, as the pages arrive. Each change is written as an event, then
// forwarded (--forward-to) as the deliveries the service would have sent, in order; the snapshot takes
// a change in only once its deliveries were answered 2xx (or --no-retry said not to wait for that),
// so a change that was not delivered is found again by the next poll, or the next run from --state.
// Only a whole walk tells which bookings left the list.
import { paginatePages, type PaginateOptions } from '../../../http/paginate';
import type { HttpClient } from '../../../http/types';
import type { FieldCheck } from '../../../output/field-check';
import { changesBetween, entryValue, type Snapshot, type Sighting } from './snapshot';
import { ConditionalPages, NotModified } from './conditional';
import { rebuiltEvents } from './rebuilt';
import type { Forwarder } from './forward';
import type { WatchEvent } from './events';

export interface PollSetup {
  client: HttpClient;
  pages: PaginateOptions;
  snapshot: Snapshot;
  conditional: ConditionalPages;
  fields: Pick<FieldCheck, 'check'>;
  write(event: WatchEvent): Promise<void>;
  forward?: Forwarder;
  noRetry: boolean;
}

export interface PollRun {
  at: string;
  /** A first poll with nothing to compare with: it only learns the list (events only with --initial). */
  baseline: boolean;
  initial: boolean;
}

/** Whether anything of the snapshot changed (so that --state is written again). */
export async function pollOnce(setup: PollSetup, run: PollRun): Promise<boolean> {
  const { snapshot, conditional } = setup;
  const client = conditional.wrap(setup.client);
  snapshot.begin();
  conditional.begin();
  let changed = false;
  let cursor: string | undefined;
  try {
    for (;;) {
      try {
        const pages = paginatePages(client, { ...setup.pages, cursor, onPage: (info) => conditional.next(info.nextCursor) });
        for await (const page of pages) {
          setup.fields.check(page);
          for (const item of page) {
            const s = snapshot.see(item);
            if (!s) continue;
            conditional.holds(s.uid);
            if (s.after && (await take(setup, run, s))) changed = true;
          }
        }
        conditional.finishPage();
        break;
      } catch (err) {
        if (!(err instanceof NotModified)) throw err;
        for (const uid of err.page.uids) snapshot.seenAgain(uid);
        if (err.page.next === undefined) break;
        cursor = err.page.next;
      }
    }
  } catch (err) {
    conditional.abandon();
    throw err;
  }
  for (const [uid, entry] of snapshot.sweep()) {
    changed = true;
    if (run.baseline) continue;
    const whole = entryValue(entry);
    const last: Record<string, unknown> = {};
    for (const key of ['title', 'status'] as const) if (key in whole) last[key] = whole[key];
    await setup.write({ type: 'removed', uid, last, at: run.at });
  }
  return changed;
}

/** One new or changed booking: written, forwarded, and taken into the snapshot when delivered. */
async function take(setup: PollSetup, run: PollRun, s: Sighting): Promise<boolean> {
  const after = s.after!;
  if (run.baseline) {
    setup.snapshot.commit({ ...s, after });
    if (run.initial) await setup.write({ type: 'listed', uid: s.uid, booking: s.item, at: run.at });
    return true;
  }
  if (!s.before) await setup.write({ type: 'added', uid: s.uid, booking: s.item, at: run.at });
  else {
    const changes = changesBetween(s.before, after);
    // A new fingerprint with the same fields (keys reordered): nothing a reader would call a change.
    if (Object.keys(changes).length > 0) await setup.write({ type: 'changed', uid: s.uid, changes, at: run.at });
  }
  if (setup.forward) {
    for (const event of rebuiltEvents(s.uid, s.before, s.item)) {
      if (!(await setup.forward.deliver(event)) && !setup.noRetry) {
        setup.snapshot.keep(s);
        setup.conditional.unclean();
        return false;
      }
    }
  }
  setup.snapshot.commit({ ...s, after });
  return true;
}
