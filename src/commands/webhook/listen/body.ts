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

/** `own`: the body's memory is its own (no other buffer shares it): releaseBody may free it. */
export type BodyRead = { body: Buffer; held: number; own?: boolean } | { refused: 408 | 413 | 503 };

const CAN_RELEASE = typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function';

/**
 * Frees a body's memory now, once nothing reads it any more: what a delivery held, or what a refused
 * one had received, would otherwise stay resident until the garbage collector comes round (30 x 60 MiB
 * deliveries peaked at 2.5x the budget). ArrayBuffer.prototype.transfer(0) detaches the buffer and
 * gives its memory back (public ES2024; node 22 and later; node 20 goes without).
 */
export function releaseBody(body: Buffer | undefined): void {
  const buffer = body?.buffer as (ArrayBuffer & { transfer?(length: number): ArrayBuffer }) | undefined;
  buffer?.transfer?.(0);
}

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
  // Every copy of the body held is counted (issue 33: 2.5x the budget once). With a declared length
  // the bytes go into one buffer as they come: its pages take memory only once written, so it holds
  // what was received, not what was declared, and there is no second copy at the end. Without one
  // (chunked, or on node 20: see below), the chunks are joined at the end.
  const declared = raw === undefined ? Number.NaN : Number(raw);
  // Only where a refused delivery's buffer can be freed at once (releaseBody): on node 20 it would stay
  // resident until collected, a delivery's worth for each refused one; there the chunks are joined.
  let whole = Number.isSafeInteger(declared) && declared > 0 && CAN_RELEASE ? Buffer.allocUnsafeSlow(declared) : undefined;
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
      releaseBody(whole);
      whole = undefined;
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
      if (whole && held + chunk.length <= whole.length) chunk.copy(whole, held);
      else {
        // More than declared (node's parser refuses it; kept for any other stream): collected.
        if (whole) chunks.push(whole.subarray(0, held));
        whole = undefined;
        chunks.push(chunk);
      }
      held += chunk.length;
    });
    req.on('end', () => {
      if (settled) return;
      if (whole) return settle(() => resolve({ body: whole!.subarray(0, held), held, own: true }));
      if (chunks.length <= 1) return settle(() => resolve({ body: chunks[0] ?? Buffer.alloc(0), held }));
      // The join is a second copy only for a moment: the chunks are let go of at once (not counted).
      const body = Buffer.concat(chunks, held);
      chunks.length = 0;
      settle(() => resolve({ body, held, own: true }));
    });
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
