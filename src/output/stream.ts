// Writing many lines without holding the terminal hostage: text goes out in slices of about 20 ms of
// work, and between slices the event loop turns, so that Ctrl-C is seen at once (bin/booking.js aborts
// the run's signal), and a reader slower than us is waited for (memory stays flat). Each slice is
// whole lines: an interrupted run leaves whole lines only.
import { InterruptedError } from '../base/errors';
import { drained, emit, type OutputContext } from './sink';

const SLICE_MS = 20;
const SLICE_CHARS = 256 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stops the run with exit 130 when the signal has been aborted. */
function checkInterrupted(ctx: OutputContext): void {
  if (ctx.signal?.aborted) throw new InterruptedError();
}

/**
 * `line(item)` for each item (each a whole line, newline included), written slice by slice; `finish`,
 * when given, edits each slice's text before it is written (an escape that is the same per line).
 */
export async function writeLines<T>(
  ctx: OutputContext,
  items: readonly T[],
  line: (item: T, index: number) => string,
  finish?: (text: string) => string,
): Promise<void> {
  let i = 0;
  while (i < items.length) {
    checkInterrupted(ctx);
    const started = performance.now();
    let text = '';
    // The clock is read every 64 lines: reading it costs more than a short line.
    do {
      const end = Math.min(items.length, i + 64);
      for (; i < end; i++) text += line(items[i]!, i);
    } while (i < items.length && text.length < SLICE_CHARS && performance.now() - started < SLICE_MS);
    emit(ctx, finish ? finish(text) : text);
    if (i < items.length) {
      await nextTurn();
      await drained(ctx);
    }
  }
}

/** Lines already made as bytes (each ending in a newline), written in slices as writeLines writes text. */
export async function writeLineBytes(ctx: OutputContext, bytes: Uint8Array): Promise<void> {
  let at = 0;
  while (at < bytes.length) {
    checkInterrupted(ctx);
    let end = bytes.length;
    if (end - at > SLICE_CHARS) {
      // Whole lines: up to the last newline in the slice, or past a line longer than a slice.
      const cut = bytes.lastIndexOf(0x0a, at + SLICE_CHARS - 1);
      end = cut >= at ? cut + 1 : bytes.indexOf(0x0a, at + SLICE_CHARS) + 1 || bytes.length;
    }
    emit(ctx, bytes.subarray(at, end));
    at = end;
    if (at < bytes.length) {
      await nextTurn();
      await drained(ctx);
    }
  }
}
