// Slowing down before a 429: the rate-limit headers of the last answer of a poll say how many requests
// are left and when the window resets. When fewer are left than the last poll needed, the next poll
// waits for the reset. Read: X-RateLimit-Remaining / X-RateLimit-Reset (GitHub, Twitter: the reset as
// epoch seconds; others: seconds from now), RateLimit-Remaining / RateLimit-Reset (IETF draft 6), and
// RateLimit: limit=100, remaining=0, reset=30 (draft 7) or "default";r=0;t=30 (draft 8 on).

interface RateLimitReading {
  remaining: number;
  /** Milliseconds from now until the window resets. */
  resetMs: number;
}

/** Epoch seconds start here (2001): a smaller reset is seconds from now. */
const EPOCH_SECONDS_FROM = 1_000_000_000;

function readRateLimit(headers: Record<string, string>, now: number): RateLimitReading | undefined {
  let remaining = number(headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining']);
  let reset = number(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset']);
  const combined = headers.ratelimit;
  if (combined !== undefined) {
    remaining ??= number(/(?:^|[;,\s])(?:remaining|r)=(\d+)/.exec(combined)?.[1]);
    reset ??= number(/(?:^|[;,\s])(?:reset|t)=(\d+)/.exec(combined)?.[1]);
  }
  if (remaining === undefined || reset === undefined) return undefined;
  const resetMs = reset >= EPOCH_SECONDS_FROM ? reset * 1000 - now : reset * 1000;
  return { remaining, resetMs: Math.max(0, resetMs) };
}

/**
 * How long the next poll should wait at least: until the reset when fewer requests are left than the
 * last poll made; undefined when the headers ask for nothing.
 */
export function slowDownMs(headers: Record<string, string>, requestsPerPoll: number, now: number): number | undefined {
  const r = readRateLimit(headers, now);
  if (!r || r.remaining >= Math.max(1, requestsPerPoll)) return undefined;
  return r.resetMs;
}

function number(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d{1,15}\s*$/.test(text)) return undefined;
  return Number(text);
}
