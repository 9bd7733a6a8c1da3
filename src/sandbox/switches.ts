// The switches that make the sandbox misbehave on purpose, so script authors can see how their
// scripts cope: added latency (--latency), random 503s (--fail-rate) and a rate limit (--rate-limit),
// whose state every answer's rate-limit headers then tell.
import { setTimeout as sleep } from 'node:timers/promises';
import { seededRng, type Rng } from './random';

export interface SwitchOptions {
  latencyMs?: number;
  /** Share of requests, 0..1, answered 503 instead. Drawn from the seed, so a run can be replayed. */
  failRate?: number;
  /** Requests allowed in any one-second window; the rest get 429 with Retry-After. */
  rateLimit?: number;
  seed: string;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
  headers: Record<string, string>;
}

export class Switches {
  private readonly rng: Rng;
  /** Arrival times (ms) of the requests let through in the last second. */
  private readonly recent: number[] = [];

  constructor(
    private readonly opts: SwitchOptions,
    private readonly clock: () => number = Date.now,
  ) {
    this.rng = seededRng(opts.seed, 'failures');
  }

  /** Waits the added latency; resolves early (without error) when the sandbox closes. */
  async delay(signal: AbortSignal): Promise<void> {
    if (!this.opts.latencyMs) return;
    await sleep(this.opts.latencyMs, undefined, { signal }).catch(() => undefined);
  }

  /** The refusal to send instead of an answer, or undefined to answer normally. */
  gate(): Refusal | undefined {
    const limit = this.opts.rateLimit;
    if (limit) {
      const now = this.clock();
      while (this.recent.length > 0 && this.recent[0]! <= now - 1000) this.recent.shift();
      if (this.recent.length >= limit) {
        const wait = Math.max(1, Math.ceil((this.recent[0]! + 1000 - now) / 1000));
        return {
          status: 429,
          code: 'rate_limited',
          message: `rate limit of ${limit} requests per second exceeded; retry after ${wait}s`,
          headers: { 'retry-after': String(wait), 'ratelimit-limit': String(limit), 'ratelimit-remaining': '0' },
        };
      }
      this.recent.push(now);
    }
    const rate = this.opts.failRate ?? 0;
    if (rate > 0 && this.rng.next() < rate) {
      return { status: 503, code: 'service_unavailable', message: `simulated outage (--fail-rate ${rate}); try again`, headers: {} };
    }
    return undefined;
  }

  /**
   * With --rate-limit, the limit as the answer's headers state it, in the two forms clients read:
   * RateLimit-* (IETF draft) and X-RateLimit-* (GitHub's; its Reset in epoch seconds). Counted after
   * gate() let the request through: how many more the current one-second window takes.
   */
  limitHeaders(): Record<string, string> {
    const limit = this.opts.rateLimit;
    if (!limit) return {};
    const now = this.clock();
    const remaining = String(Math.max(0, limit - this.recent.length));
    const resetMs = this.recent.length > 0 ? Math.max(0, this.recent[0]! + 1000 - now) : 0;
    const reset = String(Math.ceil(resetMs / 1000));
    return {
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': remaining,
      'ratelimit-reset': reset,
      'x-ratelimit-limit': String(limit),
      'x-ratelimit-remaining': remaining,
      'x-ratelimit-reset': String(Math.ceil((now + resetMs) / 1000)),
    };
  }
}
