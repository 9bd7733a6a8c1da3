// The shapes of the streams a command may touch (IOStreams) and of what they write to: the types
// that io.ts (which makes the streams) and door.ts (which stands in front of them) both use, in a
// module of their own so neither imports the other.
import type { Readable } from 'node:stream';

export interface OutStream {
  write(chunk: string | Uint8Array): unknown;
  /** Node's writable: true while a slow reader leaves writes queued (wait for 'drain'). */
  readonly writableNeedDrain?: boolean;
  once?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  off?(event: 'drain' | 'close' | 'error', listener: () => void): unknown;
  /**
   * True once everything written so far has left the process (a pipe, file or terminal has it);
   * false when a write failed (a full disk, /dev/full), which is reported where failures are
   * (bin/booking.js, the pager's handler). What a run keeps as done (watch's --state) waits for it.
   */
  delivered?(): Promise<boolean>;
}

export interface IOStreams {
  stdin: Readable;
  stdout: OutStream;
  stderr: OutStream;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** Colour on stdout/stderr, decided once from flags and env (drawn by src/output/style.ts). */
  color: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  /** Masks this key (and its encoded forms) in everything written from now on, here and through(). */
  maskSecret(key: string): void;
  /**
   * Stops masking this key: for a value that is the command's own to print, such as the sandbox's
   * key (a user who exported it after the README's first run would otherwise read `****` as the
   * key a script is to use). A key that a later request sends is masked again by that request.
   */
  unmaskSecret(key: string): void;
  /**
   * `text` with the keys masked as a write of it would mask them: for a long string written in
   * slices (src/output/json-slices.ts), masked whole first, since a key cut in two by a slice's edge
   * would pass the mask of each slice.
   */
  mask(text: string): string;
  /**
   * Writes the key itself and a newline to stdout: the one write the key mask lets through, for
   * `auth token`, whose point is to print it (BOOKING_API_KEY is masked from the first byte). The
   * escaper and the failure handling still apply.
   */
  writeKey(key: string): void;
  /**
   * The same door (mask, escaper, failure handling; src/output/door.ts) in front of another stdout
   * destination, such as a pager's stdin: the only way to write anywhere but these streams.
   */
  through(stdout: Destination, facts: { stderrIsTTY: boolean; color: boolean }): IOStreams;
}

/** Where a stream's bytes end up, and what the door must know of it. */
export interface Destination {
  stream: OutStream;
  /** A terminal (or a pager on one): the escaper stage is on. */
  isTTY: boolean;
  /** Called once when a write to it fails (EPIPE from a pager the user quit, ENOSPC…). */
  onFailure?(err: Error): void;
}
