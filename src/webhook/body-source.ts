// Where a body's bytes come from, read as a stream so memory stays flat however large it is. A regular
// file is read again for the second pass after a mismatch; a pipe or stdin cannot be, so its chunks
// are kept while it is read, up to SPOOL_LIMIT (beyond that the rewrite hints are skipped).
import { closeSync, createReadStream, fstatSync, openSync, readSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { IOStreams } from '../io';
import { unreadable } from '../input';

/** Receives each chunk; it must be consumed before returning (the memory may be reused). */
export type Sink = (chunk: Buffer) => void;

export interface BodySource {
  /** Streams the bytes into sink, once. */
  read(sink: Sink): Promise<void>;
  /** Streams the same bytes again, or undefined when they could not be kept. */
  again(): ((sink: Sink) => Promise<void>) | undefined;
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
  try {
    readFdChunks(fd, path, sink, offset);
  } finally {
    closeSync(fd);
  }
}

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
      throw unreadable(path, err);
    }
    if (n === 0) return;
    position += n;
    sink(buf.subarray(0, n));
  }
}

/** A body from FILE, or from stdin when FILE is "-" or absent. Unreadable → UsageError (exit 2). */
export function bodySource(io: IOStreams, path: string | undefined): BodySource {
  if (path === undefined || path === '-') return spooledSource(() => io.stdin);
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (err) {
    throw unreadable(path, err);
  }
  const stat = fstatSync(fd);
  if (stat.isDirectory()) {
    closeSync(fd);
    throw unreadable(path, { code: 'EISDIR' });
  }
  if (!stat.isFile()) return spooledSource(() => createReadStream(path, { fd }));
  let first = true;
  const readOnce = async (sink: Sink) => {
    if (!first) return readFileChunks(path, sink);
    first = false;
    try {
      readFdChunks(fd, path, sink, 0);
    } finally {
      closeSync(fd);
    }
  };
  return { read: readOnce, again: () => readOnce };
}

/** A body already in memory (listen buffers what it receives). */
export function bufferSource(body: Buffer): BodySource {
  const read = async (sink: Sink) => sink(body);
  return { read, again: () => read };
}

function spooledSource(open: () => Readable): BodySource {
  const kept = new Spool();
  return {
    read: async (sink) => {
      for await (const chunk of open()) {
        const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
        kept.add(buf);
        sink(buf);
      }
    },
    again: () => kept.replay(),
  };
}

/** Chunks kept for a second pass, until they pass the limit (then none are: memory stays flat). */
export class Spool {
  private chunks: Buffer[] | undefined = [];
  private size = 0;

  /** Keeps a reference: only for chunks nobody will overwrite. */
  add(chunk: Buffer): void {
    if (!this.chunks) return;
    this.size += chunk.length;
    if (this.size > SPOOL_LIMIT) this.chunks = undefined;
    else this.chunks.push(chunk);
  }

  replay(): ((sink: Sink) => Promise<void>) | undefined {
    const chunks = this.chunks;
    if (!chunks) return undefined;
    return async (sink) => {
      for (const c of chunks) sink(c);
    };
  }
}
