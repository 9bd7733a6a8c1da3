// Where a body's bytes come from, read as a stream so memory stays flat however large it is. A regular
// file is read by position in synchronous reads, and again for the second pass after a mismatch. A
// pipe, FIFO, terminal or stdin (`<(…)`, /dev/stdin, `-`) can be read only once and not by position:
// it is streamed once, honouring Ctrl-C, and its chunks are kept while it is read, up to SPOOL_LIMIT
// (beyond that the rewrite hints are skipped).
import { closeSync, openSync, readSync } from 'node:fs';
import type { IOStreams } from '../io';
import { unreadable } from '../input';
import { openInput } from './input-open';
import { readStreamChunks, type StreamInput } from './stream-input';

/** Receives each chunk; it must be consumed before returning (the memory may be reused). */
export type Sink = (chunk: Buffer) => void;

export interface BodySource {
  /** Streams the bytes into sink, once. */
  read(sink: Sink): Promise<void>;
  /** Streams the same bytes again, or undefined when they could not be kept. */
  again(): ((sink: Sink) => Promise<void>) | undefined;
  /** The bytes come from a terminal: the user types or pastes them and ends with Ctrl-D. */
  readonly terminal: boolean;
  /** The path given, or "stdin". */
  readonly name: string;
}

// 64 KiB stays in cache while SHA-256 runs over it: measured faster than 16 KiB or 1 MiB reads.
const CHUNK = 64 * 1024;
export const SPOOL_LIMIT = 64 * 1024 * 1024;

/**
 * Reads a regular file from `offset` to its end in synchronous reads into one reused buffer. Used
 * for files only (never for pipes), where a read never waits for long.
 */
export function readFileChunks(path: string, sink: Sink, offset = 0): void {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw unreadable(path, err);
  }
  readOpenedFile(fd, path, sink, offset);
}

/**
 * As readFileChunks, for a file already open; closes it, unless it turns out not to be seekable
 * (NotSeekable: then the caller reads it as a stream).
 */
export function readOpenedFile(fd: number, path: string, sink: Sink, offset = 0): void {
  let close = true;
  try {
    readFdChunks(fd, path, sink, offset);
  } catch (err) {
    close = !(err instanceof NotSeekable);
    throw err;
  } finally {
    if (close) closeSync(fd);
  }
}

/** The first positional read found a pipe or a terminal (see openUnprobed); nothing was read. */
export class NotSeekable extends Error {}

// One buffer for every read: thousands of captures in a run would otherwise each allocate 64 KiB
// and keep the garbage collector busy. Reads are synchronous, so only a sink that itself reads a
// file could meet it in use; such a nested read gets its own.
let shared: Buffer | undefined;
let sharedBusy = false;

function readFdChunks(fd: number, path: string, sink: Sink, offset: number): void {
  const own = sharedBusy;
  const buf = own ? Buffer.allocUnsafe(CHUNK) : (shared ??= Buffer.allocUnsafe(CHUNK));
  if (!own) sharedBusy = true;
  try {
    readInto(buf, fd, path, sink, offset);
  } finally {
    if (!own) sharedBusy = false;
  }
}

function readInto(buf: Buffer, fd: number, path: string, sink: Sink, offset: number): void {
  let position = offset;
  for (;;) {
    let n: number;
    try {
      n = readSync(fd, buf, 0, CHUNK, position);
    } catch (err) {
      if (position === offset && (err as { code?: string }).code === 'ESPIPE') throw new NotSeekable(path);
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

/**
 * A body from FILE, or from stdin when FILE is "-" or absent. Unreadable → UsageError (exit 2); a
 * stream's read ends with InterruptedError when `signal` aborts.
 */
export function bodySource(io: IOStreams, path: string | undefined, signal?: AbortSignal): BodySource {
  const input = openInput(io, path ?? '-');
  if (input.kind === 'stream') return spooledSource(input, signal);
  let first = true;
  const readOnce = async (sink: Sink) => {
    if (!first) return readFileChunks(input.path, sink);
    first = false;
    readOpenedFile(input.fd, input.path, sink);
  };
  return { read: readOnce, again: () => readOnce, terminal: false, name: input.path };
}

/** A body already in memory (listen buffers what it receives). */
export function bufferSource(body: Buffer): BodySource {
  const read = async (sink: Sink) => sink(body);
  return { read, again: () => read, terminal: false, name: 'the request' };
}

function spooledSource(input: StreamInput, signal: AbortSignal | undefined): BodySource {
  const kept = new Spool();
  return {
    read: (sink) =>
      readStreamChunks(input, signal, (buf) => {
        kept.add(buf);
        sink(buf);
      }),
    again: () => kept.replay(),
    terminal: input.terminal,
    name: input.name,
  };
}

/** Chunks kept for a second pass, until they pass the limit (then none are: memory stays flat). */
export class Spool {
  private chunks: Buffer[] | undefined = [];
  private size = 0;

  /** `copy`: for chunks that will be overwritten (a file's come in one reused buffer). */
  constructor(
    private readonly limit = SPOOL_LIMIT,
    private readonly copy = false,
  ) {}

  /** Keeps a reference, unless `copy`: then only for chunks nobody will overwrite. */
  add(chunk: Buffer): void {
    if (!this.chunks) return;
    this.size += chunk.length;
    if (this.size > this.limit) this.chunks = undefined;
    else this.chunks.push(this.copy ? Buffer.from(chunk) : chunk);
  }

  replay(): ((sink: Sink) => Promise<void>) | undefined {
    const chunks = this.chunks;
    if (!chunks) return undefined;
    return async (sink) => {
      for (const c of chunks) sink(c);
    };
  }

  /** The bytes kept, or undefined when they passed the limit. */
  bytes(): Buffer | undefined {
    return this.chunks && Buffer.concat(this.chunks);
  }
}
