// How much `listen` lets in at once: bodies in flight share one budget of bytes received (30
// senders of 63 MiB each once took 5 GB); a delivery that does not fit is answered 503 at once and
// its bytes are read and dropped as they come; a sender idle for IDLE_LIMIT_MS is cut, so none can
// hold the budget by trickling. Each chunk is handed on as it arrives (intake.ts): to the digests and
// the capture's file, and kept in memory only where something needs the body whole.
import type { IncomingMessage } from 'node:http';
import type { ByteBudget } from './budget';

export const IN_FLIGHT_LIMIT = 256 * 1024 * 1024;

/** Where a body's chunks go as they arrive. */
export interface BodySink {
  /** Takes a chunk (and may keep it); false: the next must wait for drained(). */
  write(chunk: Buffer): boolean;
  drained(then: () => void): void;
}

/** Refused: 408 idle sender, 413 too large, 503 no room (`disk`: listen's own disk did not keep up). */
export type BodyRead = { held: number } | { refused: 408 | 413 | 503; disk?: true };

/** How long a sender may leave a body without a byte before it is cut (a slow sender holds a budget). */
export const IDLE_LIMIT_MS = 5000;

/**
 * How long a sender may be kept paused for the capture's disk before its delivery is given up (503,
 * the sender retries later): a disk that takes no MiB in this time is stuck, and the sender with
 * the room it was promised would otherwise wait for ever.
 */
export const DISK_STALL_MS = 30_000;

/** The body's declared length (Content-Length), or NaN when it has none (chunked). */
export function declaredLength(req: IncomingMessage): number {
  const raw = req.headers['content-length'];
  return raw === undefined ? Number.NaN : Number(raw);
}

/**
 * Reads the body into `sink`, or says why it was refused: 413 over `maxBody` (by its Content-Length,
 * or as it comes), 503 when the budget has no room for it, 408 when the sender sent nothing for
 * `idleMs`. The budget counts bytes received, not the bytes a Content-Length announces: a sender that
 * declares 64 MiB and trickles a byte now and then holds only what it sent, and only until it is cut.
 * A sender that listen itself makes wait, while the sink is busy (a slow disk), is no trickler: the
 * rest of its declared body comes as soon as it may. It is promised that room when it is first
 * paused, or answered 503 then if there is none. Counting only bytes received, a slow disk paused
 * every sender after its first MiB and refused none (the bytes that would fill the budget could not
 * come): under load, 30 senders of 60 MiB waited minutes for any answer, while the bytes of those
 * refused in the end went to the disk for nothing. The room held (`held`) is given back once the
 * delivery is done. A body refused with 413 or 503 is still read, and dropped as it comes, so the
 * sender gets the answer rather than a reset. A paused sender is not counted idle; one paused for
 * `stallMs` is refused (503, `disk`).
 */
export function readBudgeted(
  req: IncomingMessage,
  budget: ByteBudget,
  maxBody: number,
  sink: BodySink,
  idleMs = IDLE_LIMIT_MS,
  stallMs = DISK_STALL_MS,
): Promise<BodyRead> {
  const declared = declaredLength(req);
  if (declared > maxBody) {
    req.resume();
    return Promise.resolve({ refused: 413 });
  }
  let received = 0;
  /** Room taken: the bytes received, or once promised, the whole declared body. */
  let held = 0;
  return new Promise<BodyRead>((resolve, reject) => {
    let settled = false;
    /** The sender's idle timer, or while it is paused, the disk's stall timer. */
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
    const refuse = (status: 408 | 413 | 503, disk = false) => {
      settle(() => {
        budget.give(held);
        resolve(disk ? { refused: status, disk: true } : { refused: status });
      });
      // 408: nothing more is read from an idle sender (its connection is closed after the answer).
      if (status !== 408) req.resume();
    };
    const fail = (err: Error) =>
      settle(() => {
        budget.give(held);
        reject(err);
      });
    /** Room for `bytes` in all; false when the budget has not the rest of it. */
    const hold = (bytes: number) => {
      if (bytes <= held) return true;
      if (!budget.take(bytes - held)) return false;
      held = bytes;
      return true;
    };
    if (req.destroyed) return fail(new Error('the sender closed the connection before the body ended'));
    watch();
    req.on('data', (chunk: Buffer) => {
      if (settled) return;
      watch();
      received += chunk.length;
      if (received > maxBody) return refuse(413);
      if (!hold(received)) return refuse(503);
      if (sink.write(chunk)) return;
      // The sink is busy: the sender waits, the rest of its body promised (see above).
      if (declared > 0 && !hold(declared)) return refuse(503);
      req.pause();
      clearTimeout(idle);
      idle = setTimeout(() => refuse(503, true), stallMs);
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
