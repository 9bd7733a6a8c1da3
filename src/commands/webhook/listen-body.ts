// How much `listen` holds in memory: each body is read whole (to verify, save and forward it), so
// without a bound 30 senders of 63 MiB each took 5 GB. Bodies in flight share one budget; a
// delivery that does not fit is answered 503 at once and its bytes are read and dropped as they come.
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

export type BodyRead = { body: Buffer; held: number } | { refused: 413 | 503 };

/**
 * The whole body, or why it was refused: 413 over `maxBody`, 503 when the budget has no room. The
 * bytes held are taken from `budget` and must be given back (`held`) once the delivery is done. With
 * a Content-Length the room is taken before any byte is read, and the body is read into one buffer
 * of that size (no second copy). A refused body is still read, and dropped as it comes, so the
 * sender gets the answer rather than a reset connection.
 */
export function readBudgeted(req: IncomingMessage, budget: InFlight, maxBody: number): Promise<BodyRead> {
  const raw = req.headers['content-length'];
  const declared = raw === undefined ? undefined : Number(raw);
  if (declared !== undefined && declared > maxBody) return dropped(req, 413);
  if (declared !== undefined && !budget.take(declared)) return dropped(req, 503);
  const into = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
  const chunks: Buffer[] = [];
  let held = declared ?? 0;
  let at = 0;
  return new Promise<BodyRead>((resolve, reject) => {
    let settled = false;
    const settle = (then: () => void) => {
      if (settled) return;
      settled = true;
      then();
    };
    const fail = (err: Error) =>
      settle(() => {
        budget.give(held);
        reject(err);
      });
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      // node's parser never hands over more than Content-Length bytes.
      if (into) {
        at += chunk.copy(into, at);
        return;
      }
      const status = held + chunk.length > maxBody ? 413 : budget.take(chunk.length) ? undefined : 503;
      if (status === undefined) {
        held += chunk.length;
        chunks.push(chunk);
        return;
      }
      chunks.length = 0;
      settle(() => {
        budget.give(held);
        resolve({ refused: status });
      });
    });
    req.on('end', () => settle(() => resolve({ body: into ? into.subarray(0, at) : Buffer.concat(chunks, held), held })));
    req.on('error', fail);
    req.on('close', () => fail(new Error('the sender closed the connection before the body ended')));
  });
}

function dropped(req: IncomingMessage, status: 413 | 503): Promise<BodyRead> {
  req.resume();
  return Promise.resolve({ refused: status });
}
