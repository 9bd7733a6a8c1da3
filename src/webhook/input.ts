// Opening what the user named as an input (a path, or stdin for "-") and reading its bytes. It is
// opened once and checked as opened by base/own-file.ts, as every file booking reads. A regular file
// is read by position in synchronous reads into one reused buffer: thousands of captures in one run
// must cost little more than a start (open, fstat, one read, close). A pipe, FIFO, terminal or
// stdin can be read only once and not by position: it is streamed, and such a read can wait for ever
// (a terminal nobody types into, a FIFO nobody writes to), so Ctrl-C must end it at once rather than
// through bin/booking.js's 3-second fallback. reader.ts builds bodies and captures on these reads.
import { closeSync, createReadStream, fstatSync, readFileSync, readSync, type Stats } from 'node:fs';
import type { Readable } from 'node:stream';
import { InterruptedError, UsageError } from '../base/errors';
import type { IOStreams } from '../output/streams';
import { unreadable } from '../base/input';
import { openOwnFile } from '../base/own-file';
import { formatBytes } from '../base/words';

/** Receives each chunk; it must be consumed before returning (the memory may be reused). */
export type Sink = (chunk: Buffer) => void;

interface FileInput {
  kind: 'file';
  path: string;
  fd: number;
  /** Its size when opened: what a read of it whole allocates at once. */
  size: number;
}

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

export type Input = FileInput | StreamInput;

// 64 KiB stays in cache while SHA-256 runs over it: measured faster than 16 KiB or 1 MiB reads.
const CHUNK = 64 * 1024;

/** At most this many bytes are read from an input (a secret, a HAR file); more is refused. */
export interface ReadLimit {
  bytes: number;
  /** Says what the bound is, after "over the N": "a secret file may hold". */
  bound: string;
}

/**
 * Opens `path` (stdin for "-"), once and checked as opened (base/own-file.ts): a regular file is read
 * by position, anything else named here (a FIFO, `<(…)`, a terminal, /dev/zero) is streamed, unless
 * `regularOnly` (a file found in a folder, never waited on: refused). A link is followed, since the
 * user named the path (a Kubernetes secret is a link). With `limit`, a regular file larger than it is
 * refused unread. Missing, unreadable or a folder → UsageError (exit 2).
 */
export function openInput(io: IOStreams, path: string, limit?: ReadLimit, regularOnly = false): Input {
  if (path === '-' || (STDIN_PATHS.has(path) && stdinIsSocket())) return stdinInput(io, path === '-' ? 'stdin' : path);
  const { fd, stats } = openOwnFile(path, {
    name: path,
    maxBytes: limit?.bytes ?? Number.POSITIVE_INFINITY,
    bound: limit?.bound ?? '',
    follow: true,
    streams: !regularOnly,
  })!;
  return stats.isFile() ? { kind: 'file', path, fd, size: stats.size } : streamInput(path, fd, stats);
}

// What the shell hands over for stdin. Opening one fails with ENXIO when stdin is a socket (node and
// other runtimes give their children socket pairs): then stdin itself is read.
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

function stdinIsSocket(): boolean {
  try {
    return fstatSync(0).isSocket();
  } catch {
    return false;
  }
}

/** A descriptor that is not a regular file, as a stream: a pipe or FIFO, a terminal, another device. */
function streamInput(path: string, fd: number, stat: Stats): StreamInput {
  const terminal = stat.isCharacterDevice() && nodeModule<typeof import('node:tty')>('node:tty').isatty(fd);
  let open: () => Readable;
  if (stat.isFIFO()) open = () => new (nodeModule<typeof import('node:net')>('node:net').Socket)({ fd, readable: true, writable: false });
  else if (terminal) open = () => new (nodeModule<typeof import('node:tty')>('node:tty').ReadStream)(fd);
  // Another device: an fs stream with no start position, reading on from where it is (no ESPIPE).
  else open = () => createReadStream(path, { fd, highWaterMark: CHUNK });
  return { kind: 'stream', name: path, open, owned: true, terminal };
}

function stdinInput(io: IOStreams, name: string): StreamInput {
  // `< some-folder`: node's stdin would read it as an empty body and the command would go on.
  assertNotFolder(name);
  return { kind: 'stream', name, open: () => io.stdin, owned: false, terminal: io.stdinIsTTY };
}

function assertNotFolder(name: string): void {
  let folder = false;
  try {
    folder = fstatSync(0).isDirectory();
  } catch {
    return; // no stdin to look at: reading it says what is wrong
  }
  if (folder) throw unreadable(name, { code: 'EISDIR' });
}

// node:net and node:tty are loaded only for a pipe or a device: at start-up they cost ~2 ms, which
// every run over regular files (thousands of captures included) would pay for nothing.
function nodeModule<T>(name: 'node:net' | 'node:tty'): T {
  return process.getBuiltinModule(name) as T;
}

/**
 * The whole input in memory (a --body to send, a secret); the caller closes a file's fd. With
 * `limit`, an input larger than it is refused (UsageError) after reading at most one chunk more, so
 * /dev/zero or a FIFO that never ends cannot fill the memory (a regular file opened with the same
 * limit was refused by its size, unread).
 */
export async function readAll(input: Input, signal: AbortSignal | undefined, limit?: ReadLimit): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  const take = (chunk: Buffer, copy: boolean) => {
    size += chunk.length;
    if (limit && size > limit.bytes) throw tooLarge(input.kind === 'file' ? input.path : input.name, limit);
    chunks.push(copy ? Buffer.from(chunk) : chunk);
  };
  if (input.kind === 'file') {
    if (!limit) {
      try {
        return readFileSync(input.fd);
      } catch (err) {
        throw unreadable(input.path, err);
      }
    }
    // Bounded still: a file in /proc or /sys says 0 and holds more.
    readFdChunks(input.fd, input.path, (chunk) => take(chunk, true));
    return Buffer.concat(chunks);
  }
  await readStreamChunks(input, signal, (chunk) => take(chunk, false));
  return Buffer.concat(chunks);
}

function tooLarge(name: string, limit: ReadLimit): UsageError {
  return new UsageError(`refusing ${name}: it is over the ${formatBytes(limit.bytes)} ${limit.bound}; not read further.`);
}

/**
 * Feeds every chunk to `each` (which may throw to stop the read) until the stream ends. Aborting
 * `signal` rejects with InterruptedError at once: the promise does not wait for the stream to close,
 * since an fs stream closes only after its pending read returns, which for a terminal may be never.
 */
export function readStreamChunks(input: StreamInput, signal: AbortSignal | undefined, each: Sink): Promise<void> {
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
    const ended = () => stop(signal?.aborted ? new InterruptedError() : undefined);
    const onEnd = () => (input.terminal ? setTimeout(ended, 50) : ended());
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

/**
 * Reads the regular file at `path` again, for a second pass, opened and checked as the first time (a
 * FIFO put in its place meanwhile is refused, not waited on). Synchronous reads: files only, where a
 * read never waits for long.
 */
export function readFileChunks(path: string, sink: Sink): void {
  const { fd } = openOwnFile(path, { name: path, maxBytes: Number.POSITIVE_INFINITY, bound: '', follow: true })!;
  readOpenedFile(fd, path, sink);
}

/** As readFileChunks, for a regular file already open (openInput); closes it. */
export function readOpenedFile(fd: number, path: string, sink: Sink): void {
  try {
    readFdChunks(fd, path, sink);
  } finally {
    closeSync(fd);
  }
}

// One buffer for every read: thousands of captures in a run would otherwise each allocate 64 KiB
// and keep the garbage collector busy. Reads are synchronous, so only a sink that itself reads a
// file could meet it in use; such a nested read gets its own.
let shared: Buffer | undefined;
let sharedBusy = false;

function readFdChunks(fd: number, path: string, sink: Sink): void {
  const own = sharedBusy;
  if (!own) {
    shared ??= Buffer.allocUnsafe(CHUNK);
    sharedBusy = true;
  }
  const buf = own ? Buffer.allocUnsafe(CHUNK) : shared!;
  try {
    readInto(buf, fd, path, sink);
  } finally {
    if (!own) sharedBusy = false;
  }
}

function readInto(buf: Buffer, fd: number, path: string, sink: Sink): void {
  let position = 0;
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, position);
    } catch (err) {
      throw unreadable(path, err);
    }
    if (n === 0) return;
    position += n;
    sink(buf.subarray(0, n));
    // A short read of a regular file is its end: stop, rather than pay one more read (a system call
    // for each of thousands of captures) to be told so.
    if (n < CHUNK) return;
  }
}
