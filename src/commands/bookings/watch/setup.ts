// What a poll needs, made once per run for `bookings watch` and `bookings changes`: the event writer
// (a --fields typo is exit 2 before anything is asked of the service), the client, the list's request,
// the snapshot, with what --state holds loaded into it, and the forwarder of --forward-to.
import type { Context } from '../../../context';
import { hint } from '../../../context';
import type { PaginateOptions } from '../../../http/paginate';
import { fieldCheck } from '../../../output/field-check';
import { pagingInForce, type PagingRuleOptions } from '../../shared/paging-options';
import { ConditionalPages } from './conditional';
import { createEventWriter, watchedFields, type EventWriter } from './output';
import type { PollSetup } from './poll';
import { Outbox } from './forward';
import { DEFAULT_MAX_STATE_BYTES, Snapshot } from './snapshot';
import { loadState, type StateOrigin } from './state-file';

export interface ListFilters extends PagingRuleOptions {
  status?: string;
  limit?: number;
  pageSize?: number;
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
  state: { path?: string; maxBytes?: number; label: string },
): Promise<Prepared> {
  const writer = await createEventWriter(ctx);
  const watched = watchedFields(ctx);
  const [client, connection] = await Promise.all([ctx.http(), ctx.connection()]);
  const pages: PaginateOptions = {
    path: '/api/v1/bookings',
    query: { status: filters.status },
    limit: filters.limit,
    pageSize: filters.pageSize,
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
  const origin: StateOrigin = { base_url: connection.baseUrl.href, profile: connection.profile, filters: listFilters };
  let resumedFrom: string | undefined;
  if (state.path !== undefined) {
    const loaded = loadState(state.path, { snapshot, outbox, conditional }, origin, maxState);
    if (loaded) {
      resumedFrom = loaded.savedAt;
      const owed = outbox.size > 0 ? `, and ${outbox.size} deliver${outbox.size === 1 ? 'y' : 'ies'} still owed` : '';
      hint(
        ctx,
        `${state.label} from ${state.path}: ${snapshot.size} booking${snapshot.size === 1 ? '' : 's'} as of ${loaded.savedAt}${owed}.`,
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
