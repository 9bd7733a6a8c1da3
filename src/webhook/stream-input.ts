// Reading an input that can be read only once and not by position: stdin, a pipe, a FIFO, a terminal.
// Such a read can wait for ever (a terminal nobody types into, a FIFO nobody writes to), so Ctrl-C
// must end it at once rather than through bin/booking.js's 3-second fallback.
import type { Readable } from 'node:stream';
import { InterruptedError } from '../errors';
import { unreadable } from '../input';

export interface StreamInput {
  kind: 'stream';
  /** The path the user gave, or "stdin", for messages. */
  name: string;
  open: () => Readable;
  /** Opened by us (closed when done); false for stdin, which the process owns. */
  owned: boolean;
  /** A terminal: the user types the bytes and ends them with Ctrl-D. */
  terminal: boolean;
}

/**
 * Feeds every chunk to `each` (which may throw to stop the read) until the stream ends. Aborting
 * `signal` rejects with InterruptedError at once: the promise does not wait for the stream to close,
 * since an fs stream closes only after its pending read returns, which for a terminal may be never.
 */
export function readStreamChunks(input: StreamInput, signal: AbortSignal | undefined, each: (chunk: Buffer) => void): Promise<void> {
  if (signal?.aborted) return Promise.reject(new InterruptedError());
  const stream = input.open();
  return new Promise<void>((resolve, reject) => {
    const stop = (err?: unknown) => {
      signal?.removeEventListener('abort', onAbort);
      stream.off('data', onData);
      stream.off('end', onEnd);
      stream.off('error', onError);
      // A late error (from a destroy still under way) must not become an uncaught exception.
      stream.on('error', () => {});
      if (input.owned) stream.destroy();
      else stream.pause();
      if (err === undefined) resolve();
      else reject(err);
    };
    const onData = (chunk: Buffer | string) => {
      try {
        each(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
      } catch (err) {
        stop(err);
      }
    };
    // Ctrl-C on a terminal can come with the end of input (a ^D typed or sent right after it), and the
    // read's end can overtake the signal: a terminal's end waits 50 ms (unnoticeable after a ^D), so
    // that a Ctrl-C pressed first wins.
    const onEnd = () => setTimeout(() => stop(signal?.aborted ? new InterruptedError() : undefined), input.terminal ? 50 : 0);
    const onError = (err: unknown) => stop(unreadable(input.name, err));
    const onAbort = () => stop(new InterruptedError());
    signal?.addEventListener('abort', onAbort, { once: true });
    stream.on('data', onData);
    stream.once('end', onEnd);
    stream.once('error', onError);
    // A 'data' listener does not restart a stream paused on purpose, as stdin is after a prompt.
    stream.resume();
  });
}
