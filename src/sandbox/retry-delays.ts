// --retry-delays: the schedule of delivery retries (the sandbox's, and bookings watch --forward-to's),
// parsed where the option is declared, in a module of its own: the command's declaration loads at
// start-up for every run, and the sender (webhooks.ts) would bring node:crypto and the HTTP client.
import { InvalidArgumentError } from 'commander';

/**
 * The documented schedule (docs/sandbox.md, docs/webhooks.md): a delivery that gets no 2xx answer is
 * sent again after 1, 2, 4 and 8 s, five attempts in all. The sandbox's, and watch --forward-to's.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 4_000, 8_000];

const MAX_RETRIES = 10;
const MAX_RETRY_DELAY_MS = 300_000;

/** `--retry-delays 1,2,4` (seconds) → [1000, 2000, 4000]; "none" → []. A bad value: commander's one-line error. */
export function parseRetryDelays(value: string): number[] {
  if (value.trim() === 'none') return [];
  const parts = value.split(',').map((p) => p.trim());
  const ms = parts.map((p) => (/^(\d+(\.\d*)?|\.\d+)$/.test(p) ? Math.round(Number(p) * 1000) : NaN));
  if (parts.length > MAX_RETRIES || ms.some((n) => !(n >= 0 && n <= MAX_RETRY_DELAY_MS)))
    throw new InvalidArgumentError(
      `expected up to ${MAX_RETRIES} comma-separated waits in seconds (each at most 300), such as 1,2,4,8, or none.`,
    );
  return ms;
}
