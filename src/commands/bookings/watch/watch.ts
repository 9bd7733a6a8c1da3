// `booking bookings watch`: a live view of the bookings list, as `kubectl get -w` gives for pods. It
// walks the list (the same filters and paging as `bookings list`) every --interval and prints what
// changed since the last walk: bookings added, changed (field: old → new) and removed. The state
// between polls is one compact entry per booking (state.ts), never a copy of a page.
import type { RunResult } from '../../deps';
import { defineCommand, option, type OptionsOf } from '../../define';
import { pagingInForce, pagingRuleOptions, pagingRules } from '../../shared/paging-options';
import { hint, type Context } from '../../../context';
import { InterruptedError, RateLimitError } from '../../../base/errors';
import { durationOption } from '../../../base/options';
import { backoffMs, sleep as realSleep } from '../../../http/retry';
import { bookingFilterOptions } from '../list';

const MIN_INTERVAL_S = 2;
const DEFAULT_INTERVAL_S = 10;

export const newCmdBookingsWatch = defineCommand({
  name: 'watch',
  description: 'print bookings added, changed and removed, polling the list every --interval',
  options: [
    option('--interval <duration>', `time between polls: 30, 30s, 2m (at least ${MIN_INTERVAL_S}s)`, parseInterval, DEFAULT_INTERVAL_S),
    option('--initial', 'print the current list first (as "listed" events)'),
    ...bookingFilterOptions('watch'),
    ...pagingRuleOptions('', ' (overrides discovery)'),
  ],
  sendsRequests: true,
  notes:
    '\nOn a terminal: a line per change, with the time of the poll. -o ndjson (or json): one JSON event per\n' +
    'line ({"type":"changed","uid":…,"changes":{"status":["pending","confirmed"]},"at":…}); in a pipe: tsv.\n' +
    'An event has type, uid, at, and booking (listed, added), changes (changed) or last (removed); --jq\n' +
    'and --fields apply to each. Naming booking fields (booking.status, changes.start) watches only those.\n' +
    'A 429 answer is honoured (Retry-After, else a growing wait); Ctrl-C stops it (exit 0).',
  examples: [
    'booking bookings watch',
    'booking bookings watch -s confirmed --interval 5s --initial',
    'booking bookings watch --jq \'select(.type == "changed") | .uid\'',
    'booking bookings watch --fields type,uid,changes.status,booking.status -o ndjson',
  ],
  run: (opts, ctx): RunResult => runBookingsWatch(opts, ctx),
});

/** --interval in seconds (the run counts in seconds), parsed as every DURATION option is. */
function parseInterval(value: string): number {
  return durationOption(86_400_000, MIN_INTERVAL_S * 1000)(value) / 1000;
}

/** The flags as run gets them; --interval in seconds. */
export type BookingsWatchOptions = OptionsOf<typeof newCmdBookingsWatch>;

export async function runBookingsWatch(opts: BookingsWatchOptions, ctx: Context): RunResult {
  const [{ paginate }, { WatchState }, { createEventWriter, watchedFields }, { fieldCheck }] = await Promise.all([
    import('../../../http/paginate'),
    import('./state'),
    import('./output'),
    import('../../../output/field-check'),
  ]);
  // Before anything is asked of the service: a --fields typo is exit 2 here.
  const writer = await createEventWriter(ctx);
  const watched = watchedFields(ctx);
  const [client, connection] = await Promise.all([ctx.http(), ctx.connection()]);
  const pageOptions = {
    path: '/api/v1/bookings',
    query: { status: opts.status },
    limit: opts.limit,
    pageSize: opts.pageSize,
    signal: ctx.signal,
    ...pagingInForce(pagingRules(opts), connection, ctx),
  };
  const wait = ctx.sleep ?? realSleep;
  const state = new WatchState(watched);
  // The booking fields watched, checked against the first page as `bookings list` checks --fields.
  const fields = fieldCheck({ ...ctx, globals: { ...ctx.globals, fields: watched } });
  const intervalMs = opts.interval * 1000;
  let polls = 0;
  let limited = 0;
  try {
    for (;;) {
      const started = ctx.now().getTime();
      const at = new Date(started).toISOString();
      const first = polls === 0;
      let pauseMs = intervalMs;
      try {
        state.begin();
        for await (const page of paginate(client, pageOptions).pages()) {
          fields.check(page);
          const events = [];
          for (const item of page) {
            const event = state.see(item, at, first);
            if (event && (!first || opts.initial)) events.push(event);
          }
          for (const event of events) await writer.write(event);
        }
        // Only a whole walk tells what left the list.
        const gone = state.sweep(at);
        if (!first) for (const event of gone) await writer.write(event);
        if (first) hint(ctx, `Watching ${state.size} booking${state.size === 1 ? '' : 's'}, every ${opts.interval}s; Ctrl-C to stop.`);
        polls++;
        limited = 0;
      } catch (err) {
        if (!(err instanceof RateLimitError)) throw err;
        // Still refused after the client's own retries: the next walk waits what the server asks,
        // else a growing backoff, and never less than the interval.
        pauseMs = Math.max(intervalMs, err.retryAfterMs ?? backoffMs(limited++, intervalMs));
        hint(ctx, `rate limited (429): next poll in ${Math.ceil(pauseMs / 1000)}s.`);
      }
      await wait(Math.max(0, started + pauseMs - ctx.now().getTime()), ctx.signal);
    }
  } catch (err) {
    // Ctrl-C is how a watch ends: exit 0, as `webhook listen` does.
    if (err instanceof InterruptedError && ctx.signal.aborted) return 0;
    throw err;
  }
}
