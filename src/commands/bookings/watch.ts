// `booking bookings watch`: a live view of the bookings list, as `kubectl get -w` gives for pods. It
// walks the list (the same filters and paging as `bookings list`) every --interval and prints what
// changed since the last walk: bookings added, changed (field: old → new) and removed. The state
// between polls is one compact entry per booking (watch-state.ts), never a copy of a page.
import { InvalidArgumentError } from 'commander';
import type { RunResult } from '../deps';
import { defineCommand, option } from '../define';
import { pagingRuleOptions, pagingRules, type PagingRuleOptions } from '../paging-options';
import { hint, type Context } from '../../context';
import { InterruptedError, RateLimitError, UsageError } from '../../errors';
import { backoffMs, sleep as realSleep } from '../../http/retry';
import { bookingFilterOptions } from './list';

export interface BookingsWatchOptions extends PagingRuleOptions {
  status?: string;
  limit?: number;
  pageSize?: number;
  /** Seconds between polls. */
  interval: number;
  initial?: boolean;
}

const MIN_INTERVAL_S = 2;
const DEFAULT_INTERVAL_S = 10;

export const newCmdBookingsWatch = defineCommand<BookingsWatchOptions>({
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
    '\nOn a terminal: a line per change, with the time of the poll. -o ndjson: one JSON event per line\n' +
    '({"type":"changed","uid":…,"changes":{"status":["pending","confirmed"]},"at":…}); in a pipe: tsv.\n' +
    'A 429 answer is honoured (Retry-After, else a growing wait); Ctrl-C stops it (exit 0).',
  examples: [
    'booking bookings watch',
    'booking bookings watch -s confirmed --interval 5s --initial',
    'booking bookings watch -o ndjson | jq -c \'select(.type == "changed")\'',
    'booking bookings watch --fields status,start',
  ],
  run: runBookingsWatch,
});

/** "10", "10s", "1.5m", "500ms", "1h" → seconds; at least MIN_INTERVAL_S. */
function parseInterval(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/i.exec(value);
  const unit = { ms: 0.001, s: 1, m: 60, h: 3600 }[(m?.[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm' | 'h'];
  const seconds = m ? Number(m[1]) * unit : NaN;
  if (!(seconds >= MIN_INTERVAL_S) || seconds > 86_400)
    throw new InvalidArgumentError(`expected a time from ${MIN_INTERVAL_S}s to 24h, such as 10, 30s or 2m.`);
  return seconds;
}

export async function runBookingsWatch(opts: BookingsWatchOptions, ctx: Context): RunResult {
  const { globals } = ctx;
  // An endless stream has no array to close: one event per line is the JSON form.
  if (globals.jq !== undefined) throw new UsageError('--jq does not apply to watch: use -o ndjson and pipe it to jq.');
  if (globals.output === 'json') throw new UsageError('watch prints a stream: use -o ndjson for one JSON event per line.');
  const [client, connection, { paginatePages }, { WatchState }, { createEventWriter }, { fieldCheck }] = await Promise.all([
    ctx.http(),
    ctx.connection(),
    import('../../http/paginate'),
    import('./watch-state'),
    import('./watch-output'),
    import('../../output/field-check'),
  ]);
  const fromFlags = opts.cursorPath !== undefined || opts.cursorFromLast !== undefined;
  const rules = pagingRules(opts);
  const pageOptions = {
    path: '/api/v1/bookings',
    query: { status: opts.status },
    limit: opts.limit,
    pageSize: opts.pageSize,
    cursorPath: fromFlags ? rules.cursorPath : connection.cursorPath,
    cursorParam: rules.cursorParam ?? connection.cursorParam,
    cursorFromLast: fromFlags ? rules.cursorFromLast : connection.cursorFromLast,
    itemsPath: rules.itemsPath ?? connection.itemsPath,
    signal: ctx.signal,
    onNote: (line: string) => void ctx.io.stderr.write(`${line}\n`),
  };
  const wait = ctx.sleep ?? realSleep;
  const state = new WatchState(globals.fields);
  const writer = createEventWriter(ctx);
  const fields = fieldCheck(ctx);
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
        for await (const page of paginatePages(client, pageOptions)) {
          fields.check(page);
          const events = [];
          for (const item of page) {
            const event = state.see(item, at, first);
            if (event && (!first || opts.initial)) events.push(event);
          }
          if (events.length > 0) await writer.write(events);
        }
        // Only a whole walk tells what left the list.
        if (!first) await writer.write(state.sweep(at));
        else state.sweep(at);
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
