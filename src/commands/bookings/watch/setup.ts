// What a poll needs, made once per run for `bookings watch` and `bookings changes`: the event writer
// (a --fields typo is exit 2 before anything is asked of the service), the client, the list's request,
// the snapshot, with what --state holds loaded into it, and the forwarder of --forward-to.
import type { Context } from '../../../context';
import { hint } from '../../../context';
import type { PaginateOptions } from '../../../http/paginate';
import type { HttpClient } from '../../../http/types';
import { fieldCheck } from '../../../output/field-check';
import { pagingInForce, type PagingRuleOptions } from '../../shared/paging-options';
import { ConditionalPages } from './conditional';
import { createEventWriter, watchedFields, type EventWriter } from './output';
import type { PollSetup } from './poll';
import { Outbox } from './forward';
import { DEFAULT_MAX_STATE_BYTES, Snapshot } from './snapshot';
import { loadState, type StateOrigin } from './state-file';

/**
 * The largest page a watch reads (--max-page; any command's ceiling, --max-response-bytes, is 64 MiB).
 * A watch runs for days and keeps the list beside each page: a page over this is a booking (or a few)
 * of megabytes of JSON, no list's usual page, and parsing one of 22 MB took the watch past issue 33's
 * 200 MB. 8 MiB: a page of 32,000 small bookings that size peaks at 140 MB on node 24 (16 MiB: 213),
 * one booking of 7.7 MB at 113 MB. Past it, the run stops with the client's one line naming the option.
 */
const DEFAULT_MAX_PAGE_BYTES = 8 * 1024 * 1024;

export interface ListFilters extends PagingRuleOptions {
  status?: string;
  limit?: number;
  pageSize?: number;
  /** --max-page */
  maxPage?: number;
}

export interface Prepared {
  setup: PollSetup;
  writer: EventWriter;
  origin: StateOrigin;
  /** The state file's save time, when one was loaded. */
  resumedFrom?: string;
  maxState: number;
}

export async function prepare(
  ctx: Context,
  filters: ListFilters,
  state: { path?: string; maxBytes?: number; label: string; initial?: boolean; flag?: string },
): Promise<Prepared> {
  const writer = await createEventWriter(ctx);
  const watched = watchedFields(ctx);
  const [http, connection] = await Promise.all([ctx.http(), ctx.connection()]);
  const maxPage = filters.maxPage ?? DEFAULT_MAX_PAGE_BYTES;
  const client = maxPage < (ctx.globals.maxResponseBytes ?? Number.POSITIVE_INFINITY) ? withMaxPage(http, maxPage) : http;
  const pages: PaginateOptions = {
    path: '/api/v1/bookings',
    query: { status: filters.status },
    limit: filters.limit,
    pageSize: filters.pageSize,
    // A poll compares the whole list: it cannot begin at a cursor, so a failure names none to resume from.
    resumable: false,
    signal: ctx.signal,
    ...pagingInForce(filters, connection, ctx),
  };
  const maxState = state.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
  const snapshot = new Snapshot(watched, maxState);
  const outbox = new Outbox((bytes) => snapshot.charge(bytes));
  const conditional = new ConditionalPages();
  const listFilters: Record<string, string> = {};
  if (filters.status !== undefined) listFilters.status = filters.status;
  if (filters.limit !== undefined) listFilters.limit = String(filters.limit);
  // The fields a --fields list watches are all the snapshot keeps: a state file of other fields would
  // show every booking as changed (and forward a change for each).
  if (watched) listFilters.fields = watched.map((f) => `booking.${f}`).join(',');
  const origin: StateOrigin = { base_url: connection.baseUrl.href, profile: connection.profile, filters: listFilters };
  let resumedFrom: string | undefined;
  if (state.path !== undefined) {
    const loaded = await loadState(state.path, { snapshot, outbox, conditional }, origin, maxState, {
      flag: state.flag,
      signal: ctx.signal,
    });
    if (loaded) {
      resumedFrom = loaded.savedAt;
      const owed = outbox.size > 0 ? `, and ${outbox.size} deliver${outbox.size === 1 ? 'y' : 'ies'} still owed` : '';
      // Not an error: `--state F --initial` in a script lists on its first run and resumes after.
      const initial = state.initial ? ' --initial is not used: what changed since is reported.' : '';
      hint(
        ctx,
        `${state.label} from ${state.path}: ${snapshot.size} booking${snapshot.size === 1 ? '' : 's'} as of ${loaded.savedAt}${owed}.${initial}`,
      );
    }
  }
  // The booking fields watched, checked against the first page as `bookings list` checks --fields.
  const fields = fieldCheck({ ...ctx, globals: { ...ctx.globals, fields: watched } });
  const setup: PollSetup = {
    client,
    pages,
    snapshot,
    conditional,
    fields,
    write: (event) => writer.write(event),
    outbox,
    noRetry: false,
  };
  return { setup, writer, origin, resumedFrom, maxState };
}

function withMaxPage(client: HttpClient, bytes: number): HttpClient {
  const maxBytes = { bytes, option: '--max-page' };
  return { baseUrl: client.baseUrl, get: (path, opts) => client.get(path, { maxBytes, ...opts }), close: () => client.close() };
}
