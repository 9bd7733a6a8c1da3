// Every wait of the program's loops goes through pause(): the client's retries (client.ts), watch's
// polls and its delivery back-off. Node's timers hold at most 2^31-1 ms (about 24.9 days): a longer delay
// given to setTimeout fires after 1 ms, so a server answering 429 with `Retry-After: 2147484` (or an
// HTTP date in year 9999) would be asked again at once, thousands of times a second. Here such a delay
// is capped at that maximum, and the caller is told so; a delay is never shortened otherwise.
import { InterruptedError } from '../base/errors';

/** The longest wait: node's timer limit, 2^31-1 ms (about 24.9 days). Documented in docs/security.md. */
export const MAX_WAIT_MS = 2 ** 31 - 1;

export type Sleep = (ms: number, signal: AbortSignal) => Promise<void>;

/** A delay as a timer can hold it: at least 0, at most MAX_WAIT_MS (a NaN or infinite delay is the maximum). */
function cappedDelay(ms: number): { ms: number; capped: boolean } {
  if (!(ms <= MAX_WAIT_MS)) return { ms: MAX_WAIT_MS, capped: true };
  return { ms: Math.max(0, ms), capped: false };
}

export interface PauseOptions {
  /** The timer (tests inject one on their own clock); default sleep() below. */
  sleep?: Sleep;
  /** Told, once per capped wait, that the delay asked for was longer than a timer holds. */
  onCapped?: (line: string) => void;
  /** What asked for the wait, for that line ("the server's Retry-After"). */
  what?: string;
}

/** Waits ms (capped, see above); Ctrl-C cuts it short with an InterruptedError. */
export function pause(ms: number, signal: AbortSignal, opts: PauseOptions = {}): Promise<void> {
  const { ms: delay, capped } = cappedDelay(ms);
  if (capped)
    opts.onCapped?.(
      `${opts.what ?? 'a wait'} of ${seconds(ms, Math.ceil)} is longer than the longest wait (${seconds(MAX_WAIT_MS, Math.floor)}, about ${describeMs(MAX_WAIT_MS)}: node's timer limit); waiting that long instead.`,
    );
  return (opts.sleep ?? sleep)(delay, signal);
}

/** setTimeout that Ctrl-C cuts short with an InterruptedError; the delay capped as pause() does. */
export const sleep: Sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new InterruptedError());
    const onAbort = () => {
      clearTimeout(timer);
      reject(new InterruptedError());
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, cappedDelay(ms).ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });

function seconds(ms: number, round: (n: number) => number): string {
  return Number.isFinite(ms) ? `${round(ms / 1000).toLocaleString('en')} s` : 'for ever';
}

/** "45s", "3.2 h", "24.9 days": a delay as a person reads it. */
export function describeMs(ms: number): string {
  if (!Number.isFinite(ms)) return 'for ever';
  const s = ms / 1000;
  if (s < 120) return `${Math.ceil(s)}s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  if (s < 172_800) return `${(s / 3600).toFixed(1)} h`;
  const days = s / 86_400;
  return `${days < 1000 ? days.toFixed(1) : Math.round(days).toLocaleString('en')} days`;
}
