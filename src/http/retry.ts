// When and how long to wait before repeating a GET. The loop itself is in client.ts; undici's
// RetryHandler is not used because it resumes a body cut mid-way with a Range request, which a JSON
// API answers with 200 and the handler then fails ("server does not support the range header"), and
// its backoff has no jitter. Here a lost connection repeats the whole request.
import { errorCode } from './failures';
import { isLoopbackHost } from '../config/transport';

export const RETRY_STATUSES: ReadonlySet<number> = new Set([429, 502, 503, 504]);

/** Connection-level failures where the same GET may well succeed a moment later. */
const RETRY_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'EHOSTDOWN',
  'EAI_AGAIN',
  'UND_ERR_SOCKET', // "other side closed", also mid-body
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_CLOSED',
]);

/**
 * Whether the same GET may succeed if repeated. A refused connection to a loopback address is not
 * retried: nothing listens on that port of this machine (a stopped sandbox), and no wait changes that.
 */
export function isRetryableError(err: unknown, url?: URL): boolean {
  const code = errorCode(err);
  if (code === 'ECONNREFUSED' && url && isLoopbackHost(url.hostname)) return false;
  return code !== undefined && RETRY_CODES.has(code);
}

/** Backoff is capped so that a few retries never add up to minutes. */
const MAX_BACKOFF_MS = 20_000;
/** A Retry-After longer than this is not slept through: the user is told to come back later. */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Exponential backoff with "equal jitter": the n-th retry (0-based) waits between half and all of
 * base·2ⁿ, so that clients failing together do not come back together.
 */
export function backoffMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(baseMs * 2 ** retry, MAX_BACKOFF_MS);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Retry-After as milliseconds from now: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
