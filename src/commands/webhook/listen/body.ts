// How much `listen` holds in memory: each body is read whole (to verify, save and forward it), so
// without a bound 30 senders of 63 MiB each took 5 GB. Bodies in flight share one budget of bytes
// received; a delivery that does not fit is answered 503 at once and its bytes are read and dropped
// as they come; a sender idle for IDLE_LIMIT_MS is cut, so none can hold the budget by trickling.
import type { IncomingMessage } from 'node:http';

export const IN_FLIGHT_LIMIT = 256 * 1024 * 1024;

/** Bytes of bodies being read, verified, saved or forwarded. */
export class InFlight {
  private used = 0;

  constructor(readonly limit: number) {}

  take(bytes: number): boolean {
    if (this.used + bytes > this.limit) return false;
    this.used += bytes;
    return true;
  }

  give(bytes: number): void {
    this.used -= bytes;
  }
}

export type BodyRead = { body: Buffer; held: number } | { refused: 408 | 413 | 503 };

/** How long a sender may leave a body without a byte before it is cut (a slow sender holds a budget). */
export const IDLE_LIMIT_MS = 5000;

/**
 * The whole body, or why it was refused: 413 over `maxBody` (by its Content-Length, or as it comes),
 * 503 when the budget has no room for the bytes that arrived, 408 when the sender sent nothing for
 * `idleMs`. The budget counts bytes received, not the bytes a Content-Length announces: a sender that
 * declares 64 MiB and trickles a byte now and then holds only what it sent, and only until it is cut.
 * The bytes held are given back (`held`) once the delivery is done. A body refused with 413 or 503
 * is still read, and dropped as it comes, so the sender gets the answer rather than a reset.
 */
export function readBudgeted(req: IncomingMessage, budget: InFlight, maxBody: number, idleMs = IDLE_LIMIT_MS): Promise<BodyRead> {
  const raw = req.headers['content-length'];
  if (raw !== undefined && Number(raw) > maxBody) return dropped(req, 413);
  const chunks: Buffer[] = [];
  let held = 0;
  return new Promise<BodyRead>((resolve, reject) => {
    let settled = false;
    let idle: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(idle);
      idle = setTimeout(() => refuse(408), idleMs);
    };
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(idle);
      then();
    };
    const refuse = (status: 408 | 413 | 503) => {
      chunks.length = 0;
      settle(() => {
        budget.give(held);
        resolve({ refused: status });
      });
      // 408: nothing more is read from an idle sender (its connection is closed after the answer).
      if (status !== 408) req.resume();
    };
    watch();
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      watch();
      if (held + chunk.length > maxBody) return refuse(413);
      if (!budget.take(chunk.length)) return refuse(503);
      held += chunk.length;
      chunks.push(chunk);
    });
    req.on('end', () => settle(() => resolve({ body: Buffer.concat(chunks, held), held })));
    req.on('error', (err) =>
      settle(() => {
        budget.give(held);
        reject(err);
      }),
    );
    req.on('close', () =>
      settle(() => {
        budget.give(held);
        reject(new Error('the sender closed the connection before the body ended'));
      }),
    );
  });
}

function dropped(req: IncomingMessage, status: 413): Promise<BodyRead> {
  req.resume();
  return Promise.resolve({ refused: status });
}
