// How much `listen` lets in at once: bodies in flight share one budget of bytes received (30
// senders of 63 MiB each once took 5 GB); a delivery that does not fit is answered 503 at once and
// its bytes are read and dropped as they come; a sender idle for IDLE_LIMIT_MS is cut, so none can
// hold the budget by trickling. Each chunk is handed on as it arrives (intake.ts): to the digests and
// the capture's file, and kept in memory only where something needs the body whole.
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

/** Where a body's chunks go as they arrive. */
export interface BodySink {
  /** Takes a chunk (and may keep it); false: the next must wait for drained(). */
  write(chunk: Buffer): boolean;
  drained(then: () => void): void;
}

export type BodyRead = { held: number } | { refused: 408 | 413 | 503 };

/** How long a sender may leave a body without a byte before it is cut (a slow sender holds a budget). */
export const IDLE_LIMIT_MS = 5000;

/** The body's declared length (Content-Length), or NaN when it has none (chunked). */
export function declaredLength(req: IncomingMessage): number {
  const raw = req.headers['content-length'];
  return raw === undefined ? Number.NaN : Number(raw);
}

/**
 * Reads the body into `sink`, or says why it was refused: 413 over `maxBody` (by its Content-Length,
 * or as it comes), 503 when the budget has no room for the bytes that arrived, 408 when the sender
 * sent nothing for `idleMs`. The budget counts bytes received, not the bytes a Content-Length
 * announces: a sender that declares 64 MiB and trickles a byte now and then holds only what it sent,
 * and only until it is cut. The bytes held are given back (`held`) once the delivery is done. A body
 * refused with 413 or 503 is still read, and dropped as it comes, so the sender gets the answer
 * rather than a reset. While the sink is busy (a slow disk) the sender is paused, and not counted idle.
 */
export function readBudgeted(
  req: IncomingMessage,
  budget: InFlight,
  maxBody: number,
  sink: BodySink,
  idleMs = IDLE_LIMIT_MS,
): Promise<BodyRead> {
  if (declaredLength(req) > maxBody) {
    req.resume();
    return Promise.resolve({ refused: 413 });
  }
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
      settle(() => {
        budget.give(held);
        resolve({ refused: status });
      });
      // 408: nothing more is read from an idle sender (its connection is closed after the answer).
      if (status !== 408) req.resume();
    };
    const fail = (err: Error) =>
      settle(() => {
        budget.give(held);
        reject(err);
      });
    if (req.destroyed) return fail(new Error('the sender closed the connection before the body ended'));
    watch();
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      watch();
      if (held + chunk.length > maxBody) return refuse(413);
      if (!budget.take(chunk.length)) return refuse(503);
      held += chunk.length;
      if (sink.write(chunk)) return;
      req.pause();
      clearTimeout(idle);
      sink.drained(() => {
        if (settled) return;
        watch();
        req.resume();
      });
    });
    req.on('end', () => settle(() => resolve({ held })));
    req.on('error', fail);
    req.on('close', () => fail(new Error('the sender closed the connection before the body ended')));
  });
}
