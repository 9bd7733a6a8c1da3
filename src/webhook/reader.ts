// Bodies and captures, read as streams so memory stays flat however large they are, and readable a
// second time for the rewrite hints after a mismatch. A regular file is read again by position; a
// pipe, FIFO, terminal or stdin (`<(…)`, /dev/stdin, `-`) is streamed once, honouring Ctrl-C, and its
// chunks are kept while it is read, up to SPOOL_LIMIT (beyond that the rewrite hints are skipped).
import type { IOStreams } from '../io';
import { CaptureParser, type CaptureHead } from './capture';
import {
  NotSeekable,
  openInput,
  openUnprobed,
  readFileChunks,
  readOpenedFile,
  readStreamChunks,
  streamInput,
  type Sink,
  type StreamInput,
} from './input';

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

export const SPOOL_LIMIT = 64 * 1024 * 1024;

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

export interface ReadCapture {
  head: CaptureHead;
  /** Streams the body again (de-chunked), or undefined when it could not be kept. */
  again: ((sink: Sink) => Promise<void>) | undefined;
}

/**
 * Parses the capture named on the command line, whatever it is, its body into `sink`. A regular file
 * is parsed in synchronous reads and read again for a second pass; a stream is read once and its
 * bytes kept for the second pass, as a body from stdin is. Ctrl-C (`signal`) ends a stream's read.
 */
export async function readCapture(io: IOStreams, path: string, sink: Sink, signal?: AbortSignal): Promise<ReadCapture> {
  const input = openUnprobed(io, path);
  if (input.kind === 'stream') return readStreamCapture(input, sink, signal);
  try {
    const head = parseCaptureFile(path, sink, input.fd);
    return { head, again: async (s) => void parseCaptureFile(path, s) };
  } catch (err) {
    if (!(err instanceof NotSeekable)) throw err;
    return readStreamCapture(streamInput(path, input.fd), sink, signal);
  }
}

/** Parses the capture in the regular file at `path` (already open as `fd`, which is closed). */
export function parseCaptureFile(path: string, sink: Sink, fd?: number): CaptureHead {
  const parser = new CaptureParser(path, sink);
  try {
    if (fd === undefined) readFileChunks(path, (chunk) => parser.push(chunk));
    else readOpenedFile(fd, path, (chunk) => parser.push(chunk));
  } catch (err) {
    parser.abandon();
    throw err;
  }
  return parser.end();
}

async function readStreamCapture(input: StreamInput, sink: Sink, signal: AbortSignal | undefined): Promise<ReadCapture> {
  const kept = new Spool();
  const parser = new CaptureParser(input.name, sink);
  try {
    await readStreamChunks(input, signal, (chunk) => {
      kept.add(chunk);
      parser.push(chunk);
    });
  } catch (err) {
    parser.abandon();
    throw err;
  }
  const head = parser.end();
  const raw = kept.replay();
  const again =
    raw &&
    (async (s: Sink) => {
      const reparse = new CaptureParser(input.name, s);
      await raw((chunk) => reparse.push(chunk));
      reparse.end();
    });
  return { head, again };
}
