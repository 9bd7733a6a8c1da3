// The run of `bookings watch`: poll, save --state, wait, again, until Ctrl-C (exit 0) or, with --once,
// after one poll. The wait is the interval from the start of the last poll, longer when the service
// asks (a 429's Retry-After, else a growing backoff; rate-limit headers that say the next poll would
// not fit), and goes through pause(), which caps a wait longer than a timer can hold and says so.
// --state is saved after each poll that changed the snapshot, and on the way out (Ctrl-C, an error)
// unless the run was still taking its first look at the list (a partial first look saved would make
// the next run take every booking it missed for a new one).
import type { RunResult } from '../../deps';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { FailureError, InterruptedError, RateLimitError } from '../../../base/errors';
import { backoffMs } from '../../../http/retry';
import { describeMs, pause } from '../../../http/wait';
import type { BookingsWatchOptions } from './options';
import { pollOnce } from './poll';
import { slowDownMs } from './conditional';
import { prepare, type Prepared } from './setup';
import { saveState } from './state-file';

export async function runBookingsWatch(opts: BookingsWatchOptions, ctx: Context): RunResult {
  const forwarding = await import('./forward').then((m) => m.forwardingOf(opts, ctx));
  const prepared = await prepare(ctx, opts, { path: opts.state, maxBytes: opts.maxState, label: 'Resuming', initial: opts.initial });
  const { setup, origin } = prepared;
  setup.forward = forwarding?.forwarder;
  setup.noRetry = forwarding?.noRetry ?? false;
  const warn = (line: string) => void ctx.io.stderr.write(`${line}\n`);
  const intervalMs = opts.interval * 1000;
  const statePath = opts.state;
  const version = () => setup.snapshot.version + setup.outbox.version + setup.conditional.version;
  let saved = prepared.resumedFrom !== undefined ? version() : -1;
  let baseline = prepared.resumedFrom === undefined;
  let unsaved = false;
  const save = async () => {
    if (statePath === undefined || baseline || unsaved || saved === version()) return;
    unsaved = true; // until it has worked: a save that failed is not tried again on the way out
    // What stdout did not take (a full disk, /dev/full) was not reported: the state stays where it
    // was, for the next run to report it again, and the failed write ends the run (exit 1). A reader
    // that has stopped reading is waited for until Ctrl-C, which then saves only what it took.
    if (!(await deliveredUnlessStopped(ctx))) return;
    saveState(statePath, setup, origin, ctx.now());
    saved = version();
    unsaved = false;
  };
  let polls = 0;
  let limited = 0;
  try {
    for (;;) {
      const started = ctx.now().getTime();
      let pauseMs = intervalMs;
      try {
        await pollOnce(setup, { at: new Date(started).toISOString(), baseline, initial: opts.initial ?? false });
        const first = baseline;
        baseline = false;
        await save();
        if (polls === 0) firstNote(ctx, prepared, opts, first);
        polls++;
        limited = 0;
        const now = ctx.now().getTime();
        const slow = slowDownMs(setup.conditional.lastHeaders, setup.conditional.requests, now);
        // The wait is counted from the poll's start; the reset from now.
        if (!opts.once && slow !== undefined && now - started + slow > pauseMs) {
          pauseMs = now - started + slow;
          hint(ctx, `rate limit nearly reached (headers of the last answer): next poll in ${describeMs(slow)}, when the window resets.`);
        }
      } catch (err) {
        if (!(err instanceof RateLimitError) || opts.once) throw err;
        // Still refused after the client's own retries: the next walk waits what the server asks,
        // else a growing backoff, and never less than the interval.
        pauseMs = Math.max(intervalMs, err.retryAfterMs ?? backoffMs(limited++, intervalMs));
        hint(ctx, `rate limited (429): next poll in ${describeMs(pauseMs)}.`);
      }
      if (opts.once) break;
      await pause(Math.max(0, started + pauseMs - ctx.now().getTime()), ctx.signal, {
        sleep: ctx.sleep,
        onCapped: warn,
        what: 'the wait before the next poll',
      });
    }
  } catch (err) {
    // What was delivered and taken in so far is kept, whatever stopped the run (a failed save is
    // said, and the first error stands).
    try {
      await save();
    } catch (saving) {
      warn(`error: ${(saving as Error).message}`);
    }
    // Ctrl-C is how a watch ends: exit 0, as `webhook listen` does. A --once run is a batch, which
    // Ctrl-C cuts short: 130, so that `--once && next-step` and cron do not take it for a catch-up.
    if (err instanceof InterruptedError && ctx.signal.aborted && !opts.once) return 0;
    throw err;
  }
  await prepared.writer.end();
  const owed = setup.outbox.size;
  if (owed > 0)
    throw new FailureError(
      `${owed} deliver${owed === 1 ? 'y' : 'ies'} to --forward-to not answered 2xx.`,
      opts.state ? `${opts.state} keeps ${owed === 1 ? 'it' : 'them'}: the next run sends ${owed === 1 ? 'it' : 'them'} first.` : undefined,
    );
  return 0;
}

/** Whether stdout has taken what was written (OutStream.delivered); false as soon as the run is stopped. */
async function deliveredUnlessStopped(ctx: Context): Promise<boolean> {
  const delivered = ctx.io.stdout.delivered?.();
  if (!delivered) return true;
  let onAbort = () => {};
  const stopped = new Promise<boolean>((resolve) => {
    onAbort = () => resolve(false);
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    // Already taken wins over already stopped: the first of the two in the race.
    return await Promise.race([delivered, stopped]);
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
  }
}

function firstNote(ctx: Context, prepared: Prepared, opts: BookingsWatchOptions, first: boolean): void {
  const n = prepared.setup.snapshot.size;
  const bookings = `${n} booking${n === 1 ? '' : 's'}`;
  if (opts.once) {
    if (first && opts.state) hint(ctx, `Saved ${bookings} to ${opts.state}; the next run reports what changed since.`);
    return;
  }
  hint(ctx, `Watching ${bookings}, every ${opts.interval}s; Ctrl-C to stop.`);
}
