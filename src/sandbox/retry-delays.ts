// --retry-delays: the schedule of delivery retries (the sandbox's, and bookings watch --forward-to's),
// parsed where the option is declared, in a module of its own: the command's declaration loads at
// start-up for every run, and the sender (webhooks.ts) would bring node:crypto and the HTTP client.
import { InvalidArgumentError } from 'commander';

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
