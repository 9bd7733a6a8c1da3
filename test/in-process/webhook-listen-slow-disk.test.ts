// `webhook listen` reading bodies while its disk is slow (issue 33, item 8): the intake's reader
// (readBudgeted) driven with senders and a capture disk that the test holds still and lets go. A
// sender that listen pauses for its disk is promised the rest of its declared body, or answered 503
// at once; before, a stuck disk left every sender waiting with none refused (the test's 30 x 60 MiB
// deliveries went minutes without an answer on a loaded machine). Neither a paused sender nor one
// whose whole body has come waits for ever on a disk that stopped: each is answered 503.
import type { IncomingMessage } from 'node:http';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import { type BodyRead, type BodySink, readBudgeted } from '../../src/commands/webhook/listen/body';
import { ByteBudget } from '../../src/commands/webhook/listen/budget';
import { DiskStalled, finishedMoving } from '../../src/commands/webhook/listen/save';
import { until } from '../helpers/until';

const MiB = 1024 * 1024;

/** A disk the test holds still: each capture's writes queue up until it is let go. */
class Disk {
  private waiting: (() => void)[] = [];
  stuck = true;

  /** One delivery's capture on this disk; `got` counts the bytes it was handed. */
  capture(): BodySink & { got: number } {
    const disk = this;
    return {
      got: 0,
      write(chunk) {
        this.got += chunk.length;
        return !disk.stuck;
      },
      drained(then) {
        if (disk.stuck) disk.waiting.push(then);
        else then();
      },
    };
  }

  letGo(): void {
    this.stuck = false;
    for (const then of this.waiting.splice(0)) then();
  }
}

/** A sender of a body of `declared` bytes (a Content-Length), as node's request stream hands it on. */
function sender(declared: number) {
  const req = Object.assign(new PassThrough(), { headers: { 'content-length': String(declared) } });
  return { req: req as unknown as IncomingMessage & PassThrough, send: (bytes: number) => req.write(Buffer.alloc(bytes, 'x')) };
}

/** The reader's outcome, watched: undefined while it is still waiting. */
function read(req: IncomingMessage, budget: ByteBudget, sink: BodySink, stallMs = 60_000) {
  const state: { result?: BodyRead | Error } = {};
  readBudgeted(req, budget, 64 * MiB, sink, 60_000, stallMs).then(
    (r) => (state.result = r),
    (err: Error) => (state.result = err),
  );
  return state;
}

describe('listen with a slow disk', () => {
  it('a sender paused for the disk holds the rest of its body; the next ones past the budget get 503 at once', async () => {
    const disk = new Disk();
    const budget = new ByteBudget(4 * MiB);
    const [a, b, c] = [sender(3 * MiB), sender(3 * MiB), sender(3 * MiB)];
    const captures = [disk.capture(), disk.capture(), disk.capture()];
    const reads = [read(a.req, budget, captures[0]!), read(b.req, budget, captures[1]!), read(c.req, budget, captures[2]!)];
    a.send(64 * 1024);
    await until(() => captures[0]!.got > 0, 'the first capture to get its first chunk');
    b.send(64 * 1024);
    c.send(64 * 1024);
    // Neither waits behind the stuck disk: their 3 MiB cannot fit beside the first one's.
    await until(() => reads[1]!.result !== undefined && reads[2]!.result !== undefined, 'the second and third to be answered');
    expect(reads[1]!.result).toEqual({ refused: 503 });
    expect(reads[2]!.result).toEqual({ refused: 503 });
    expect(reads[0]!.result).toBeUndefined();
    // The refused ones are read to the end and dropped (the sender gets the 503, not a reset).
    expect(b.req.isPaused()).toBe(false);
    b.send(MiB);
    await until(() => b.req.readableLength === 0, 'the refused body to be read on');
    expect(captures[1]!.got).toBe(64 * 1024);
    // Once the disk moves, the first one ends with the room it was promised, then gives it back.
    disk.letGo();
    a.send(3 * MiB - 64 * 1024);
    a.req.end();
    await until(() => reads[0]!.result !== undefined, 'the first delivery to be read whole');
    expect(reads[0]!.result).toEqual({ held: 3 * MiB });
    expect(captures[0]!.got).toBe(3 * MiB);
    budget.give(3 * MiB);
    expect(budget.fits(4 * MiB)).toBe(true);
  });

  it('a slow sender that the disk keeps up with still holds only the bytes it sent', async () => {
    const disk = new Disk();
    disk.letGo();
    const budget = new ByteBudget(MiB);
    const slow = sender(60 * MiB);
    const trickling = read(slow.req, budget, disk.capture());
    slow.send(100 * 1024);
    const next = sender(900 * 1024);
    const capture = disk.capture();
    const fitting = read(next.req, budget, capture);
    next.send(900 * 1024);
    next.req.end();
    await until(() => fitting.result !== undefined, 'the second delivery to be read');
    expect(fitting.result).toEqual({ held: 900 * 1024 });
    expect(trickling.result).toBeUndefined();
    budget.give(900 * 1024);
    // The sender goes away: the reader ends, and so does the room it held.
    slow.req.destroy();
    await until(() => trickling.result !== undefined, 'the first reader to end');
    expect(trickling.result).toBeInstanceOf(Error);
    expect(budget.fits(MiB)).toBe(true);
  });

  it('a sender paused for a disk that does not move is answered 503 after the stall bound, its room given back', async () => {
    const disk = new Disk();
    const budget = new ByteBudget(8 * MiB);
    const a = sender(3 * MiB);
    const capture = disk.capture();
    const state = read(a.req, budget, capture, 50);
    a.send(64 * 1024);
    await until(() => state.result !== undefined, 'the paused delivery to be given up');
    expect(state.result).toEqual({ refused: 503, disk: true });
    expect(budget.fits(8 * MiB)).toBe(true);
    // The rest of its body is read and dropped: the sender gets the 503, not a reset.
    expect(a.req.isPaused()).toBe(false);
    a.send(MiB);
    await until(() => a.req.readableLength === 0, 'the given-up body to be read on');
    expect(capture.got).toBe(64 * 1024);
  });

  it("a capture's last queued bytes: waited for while the disk moves, given up once it takes none for the stall bound", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      /** A capture's file on a disk the test moves: each write completes when the test says. */
      const capture = () => {
        const writes: (() => void)[] = [];
        const out = new Writable({ highWaterMark: MiB, write: (_chunk, _enc, done) => void writes.push(() => done()) });
        for (let i = 0; i < 3; i++) out.write(Buffer.alloc(64 * 1024));
        out.end();
        const state: { result?: 'written' | Error } = {};
        finishedMoving(out, 1000).then(
          () => (state.result = 'written'),
          (err: Error) => (state.result = err),
        );
        return { state, step: () => writes.shift()?.() };
      };
      // A disk that takes a write now and then is waited for, past the bound, to the end.
      const slow = capture();
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(900);
        slow.step();
      }
      await vi.advanceTimersByTimeAsync(900);
      expect(slow.state.result).toBe('written');
      // One that stops: given up once a whole bound has passed without a write, not before.
      const stuck = capture();
      await vi.advanceTimersByTimeAsync(900);
      stuck.step();
      await vi.advanceTimersByTimeAsync(1000);
      expect(stuck.state.result).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1000);
      expect(stuck.state.result).toBeInstanceOf(DiskStalled);
      expect((stuck.state.result as Error).message).toBe('the disk took no more bytes of the capture for 1 s');
    } finally {
      vi.useRealTimers();
    }
  });
});
