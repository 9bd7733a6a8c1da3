// One poll of `bookings watch` (and the one of `bookings changes`): a walk of the list compared with
// the snapshot, booking by booking, as the pages arrive. Each change is written as an event and, with
// --forward-to, queued as the deliveries the service would have sent (the Outbox, forward.ts), which are sent after
// each page, in order. Only a whole walk tells which bookings left the list.
import { paginate, type PaginateOptions } from '../../../http/paginate';
import { FailureError } from '../../../base/errors';
import { escapeOneLine } from '../../../output/escape';
import type { HttpClient } from '../../../http/types';
import type { FieldCheck } from '../../../output/field-check';
import { changesBetween, entryValue, type Snapshot, type Sighting } from './snapshot';
import { type ConditionalPages, NotModified } from './conditional';
import { MAX_CONFIRMED, stillListed } from './confirm';
import { rebuiltEvents } from './rebuilt';
import type { Forwarder } from './forward';
import type { Outbox } from './forward';
import type { WatchEvent } from './output';

export interface PollSetup {
  client: HttpClient;
  pages: PaginateOptions;
  snapshot: Snapshot;
  conditional: ConditionalPages;
  fields: Pick<FieldCheck, 'check'>;
  write(event: WatchEvent): Promise<void>;
  outbox: Outbox;
  forward?: Forwarder;
  noRetry: boolean;
}

export interface PollRun {
  at: string;
  /** A first poll with nothing to compare with: it only learns the list (events only with --initial). */
  baseline: boolean;
  initial: boolean;
}

export async function pollOnce(setup: PollSetup, run: PollRun): Promise<void> {
  const { snapshot, conditional } = setup;
  const client = conditional.wrap(setup.client);
  snapshot.begin();
  conditional.begin();
  // What an earlier poll or run still owes the receiver goes first. Once a delivery has failed (after
  // its retries), the queue waits for the next poll rather than costing each page the retries again.
  let stuck = !(await deliver(setup));
  let cursor: string | undefined;
  // A 304 restarts the walk at the page's next cursor: what the walk has been through so far goes with
  // it, so that --limit counts every booking of the poll once, and a cursor the poll was already
  // restarted at (a loop through an unchanged page, which the restarted walk cannot see) ends it.
  const limit = setup.pages.limit;
  let taken = 0;
  const restartedAt = new Set<string>();
  try {
    for (;;) {
      try {
        if (limit !== undefined && taken >= limit) break;
        const left = limit === undefined ? undefined : limit - taken;
        const pages = paginate(client, {
          ...setup.pages,
          limit: left,
          cursor,
          onPage: (info) => conditional.next(info.nextCursor),
        }).pages();
        for await (const page of pages) {
          setup.fields.check(page);
          taken += page.length;
          for (const item of page) {
            const s = snapshot.see(item);
            if (!s) continue;
            conditional.holds(s.uid);
            if (s.after) await take(setup, run, s);
          }
          if (!stuck) stuck = !(await deliver(setup));
        }
        conditional.finishPage();
        break;
      } catch (err) {
        if (!(err instanceof NotModified)) throw err;
        for (const uid of err.page.uids) snapshot.seenAgain(uid);
        taken += err.page.uids.length;
        if (err.page.next === undefined) break;
        if (restartedAt.has(err.page.next))
          throw new FailureError(
            `GET ${setup.pages.path}: the list came back to a page it had already passed (cursor ${escapeOneLine(err.page.next, 120)}) through pages that had not changed; stopping instead of looping.`,
          );
        restartedAt.add(err.page.next);
        cursor = err.page.next;
      }
    }
  } catch (err) {
    conditional.abandon();
    throw err;
  }
  const spared = run.baseline || limit !== undefined ? new Set<string>() : await stillThere(setup);
  for (const [uid, entry] of snapshot.sweep(spared)) {
    if (run.baseline) continue;
    const whole = entryValue(entry);
    const last: Record<string, unknown> = {};
    for (const key of ['title', 'status'] as const) if (key in whole) last[key] = whole[key];
    await setup.write({ type: 'removed', uid, last, at: run.at });
  }
}

/** One new or changed booking: written, its deliveries queued, and taken into the snapshot. */
async function take(setup: PollSetup, run: PollRun, s: Sighting): Promise<void> {
  const after = s.after!;
  if (run.baseline) {
    setup.snapshot.commit({ ...s, after });
    if (run.initial) await setup.write({ type: 'listed', uid: s.uid, booking: s.item, at: run.at });
    return;
  }
  if (!s.before) await setup.write({ type: 'added', uid: s.uid, booking: s.item, at: run.at });
  else {
    const changes = changesBetween(s.before, after);
    // A new fingerprint with the same fields (keys reordered): nothing a reader would call a change.
    if (Object.keys(changes).length > 0) await setup.write({ type: 'changed', uid: s.uid, changes, at: run.at });
  }
  if (setup.forward) for (const event of rebuiltEvents(s.uid, s.before, after, s.item)) setup.outbox.add(event, run.at);
  setup.snapshot.commit({ ...s, after });
}

/**
 * The bookings the walk missed for the first time that the service still has (confirm.ts): a list
 * that shifted under paging skips some. One a walk before missed too has left the list. (A walk cut
 * by --limit watches its first bookings: one pushed past them has left them; none is asked.)
 */
async function stillThere(setup: PollSetup): Promise<Set<string>> {
  const spared = new Set<string>();
  const status = setup.pages.query?.status;
  let asked = 0;
  // Once the service has not answered (a 5xx, a time-out), the rest are kept unasked: a poll costs at
  // most one such wait, and the next poll removes whichever its walk misses again.
  let answering = true;
  for (const { uid, missedBefore } of setup.snapshot.unseen()) {
    if (missedBefore) continue;
    if (!answering) {
      spared.add(uid);
      continue;
    }
    if (asked++ >= MAX_CONFIRMED) break;
    const said = await stillListed(setup.client, uid, status, setup.pages.signal);
    if (said !== 'removed') spared.add(uid);
    answering = said !== 'unknown';
  }
  return spared;
}

/** false when a delivery failed and the rest of the queue waits. */
async function deliver(setup: PollSetup): Promise<boolean> {
  return setup.forward ? setup.outbox.flush(setup.forward, setup.noRetry) : true;
}
