// Bodies and captures, read as streams so memory stays flat however large they are, and readable a
// second time for the rewrite hints after a mismatch. A regular file is read again by position; a
// pipe, FIFO, terminal or stdin (`<(…)`, /dev/stdin, `-`) is streamed once, honouring Ctrl-C, and its
// chunks are kept while it is read, up to SPOOL_LIMIT (beyond that the rewrite hints are skipped).
import { UsageError } from '../base/errors';
import type { IOStreams } from '../output/streams';
import { CAPTURE_FILE_LIMIT, CaptureParser, type CaptureHead } from './capture';
import { HAR_LIMIT } from './har';
import { FileRefused } from '../base/own-file';
import { openInput, readFileChunks, readOpenedFile, readStreamChunks, type Input, type Sink, type StreamInput } from './input';
import { formatBytes } from '../base/words';

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

// A capture or HAR file bigger than its bound is refused as opened, unread (a stream is cut by the
// capture parser and the Sniffer as it passes theirs).
const CAPTURE_FILE = { bytes: CAPTURE_FILE_LIMIT, bound: 'a capture may be' };
const HAR_FILE = { bytes: HAR_LIMIT, bound: 'a capture or HAR file may be' };

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

/** What `verify --request` finds in a file: one raw capture, or a HAR file's bytes (har.ts reads them). */
export type ReadDelivery = ({ kind: 'capture' } & ReadCapture) | { kind: 'har'; bytes: Buffer };

export interface ReadOptions {
  signal?: AbortSignal;
  /** Look at the first bytes: JSON (`{`) is a HAR file, anything else a raw capture. */
  har?: boolean;
  /** Refuse what is not a regular file (a FIFO put in a capture folder) rather than wait on it. */
  regularOnly?: boolean;
  /** Called before a read that can wait (a pipe, a FIFO, a terminal): output held back goes out first. */
  beforeWait?: () => void;
}

/** A capture in a folder that is not a regular file; reported and skipped, never waited on. */
export class NotRegularFile extends Error {}

/**
 * Parses the capture named on the command line, whatever it is, its body into `sink`. A regular file
 * is parsed in synchronous reads and read again for a second pass; a stream is read once and its
 * bytes kept for the second pass, as a body from stdin is. Ctrl-C (`signal`) ends a stream's read.
 */
export async function readCapture(io: IOStreams, path: string, sink: Sink, signal?: AbortSignal): Promise<ReadCapture> {
  return (await readDelivery(io, path, sink, { signal })) as ReadCapture;
}

/** As readCapture, and with `har`, a HAR file is recognised by its first bytes and returned whole. */
export async function readDelivery(io: IOStreams, path: string, sink: Sink, opts: ReadOptions): Promise<ReadDelivery> {
  let input: Input;
  try {
    input = openInput(io, path, opts.har ? HAR_FILE : CAPTURE_FILE, opts.regularOnly);
  } catch (err) {
    if (err instanceof FileRefused && err.reason === 'special') throw new NotRegularFile(path);
    throw err;
  }
  if (input.kind === 'stream') return readStreamDelivery(input, sink, opts);
  const sniff = new Sniffer(path, sink, opts.har ?? false, input.size);
  try {
    readOpenedFile(input.fd, path, (chunk) => sniff.push(chunk, true));
  } catch (err) {
    sniff.abandon();
    throw err;
  }
  const found = sniff.end();
  if (found.kind === 'har') return found;
  return { ...found, again: async (s) => void parseCaptureFile(path, s) };
}

/** Parses the capture in the regular file at `path`. */
export function parseCaptureFile(path: string, sink: Sink): CaptureHead {
  const parser = new CaptureParser(path, sink);
  try {
    readFileChunks(path, (chunk) => parser.push(chunk));
  } catch (err) {
    parser.abandon();
    throw err;
  }
  return parser.end();
}

async function readStreamDelivery(input: StreamInput, sink: Sink, opts: ReadOptions): Promise<ReadDelivery> {
  opts.beforeWait?.();
  const kept = new Spool();
  const sniff = new Sniffer(input.name, sink, opts.har ?? false);
  try {
    await readStreamChunks(input, opts.signal, (chunk) => {
      sniff.push(chunk, false);
      if (sniff.kind === 'capture') kept.add(chunk);
    });
  } catch (err) {
    sniff.abandon();
    throw err;
  }
  const found = sniff.end();
  if (found.kind === 'har') return found;
  const raw = kept.replay();
  const again =
    raw &&
    (async (s: Sink) => {
      const reparse = new CaptureParser(input.name, s);
      await raw((chunk) => reparse.push(chunk));
      reparse.end();
    });
  return { ...found, again };
}

// What may come before the first byte that tells a HAR file ("{") from a capture: a UTF-8 BOM, blank space.
const LEADING = new Set([0xef, 0xbb, 0xbf, 0x20, 0x09, 0x0d, 0x0a]);

/**
 * Tells a HAR file from a raw capture by its first bytes (whatever its name: `<(…)` has none) and
 * passes the bytes on to the one that reads it: the capture parser, or a bounded buffer for HAR.
 */
class Sniffer {
  kind: 'capture' | 'har' | undefined;
  private pending: Buffer[] = [];
  private parser: CaptureParser | undefined;
  // A HAR file's bytes, copied into one buffer as they come, not kept as chunks and joined at the end:
  // that held the file twice (a 120 MB HAR, 240 MB). Its size, when known, is allocated at once.
  private har: Buffer | undefined;
  private harSize = 0;

  constructor(
    private readonly name: string,
    private readonly sink: Sink,
    allowHar: boolean,
    private readonly sizeHint = 0,
  ) {
    if (!allowHar) this.start('capture');
  }

  /** `reused`: the chunk's memory is overwritten after this returns (a file's one buffer). */
  push(chunk: Buffer, reused: boolean): void {
    if (this.kind === undefined) {
      const at = chunk.findIndex((b) => !LEADING.has(b));
      if (at === -1) return void this.pending.push(reused ? Buffer.from(chunk) : chunk);
      this.start(chunk[at] === 0x7b ? 'har' : 'capture');
      for (const p of this.pending.splice(0)) this.push(p, false);
    }
    if (this.parser) {
      this.parser.push(chunk);
      return;
    }
    const size = this.harSize + chunk.length;
    if (size > HAR_LIMIT)
      throw new UsageError(`${this.name} is larger than ${formatBytes(HAR_LIMIT)}, the most a HAR file may hold; not read further.`);
    // Grown (a stream's, or a file that grew) to twice its size: all the grows copy fewer bytes than it ends with.
    if (this.har === undefined || size > this.har.length) {
      const grown = Buffer.allocUnsafeSlow(Math.min(HAR_LIMIT, Math.max(size, this.sizeHint, 2 * (this.har?.length ?? 0))));
      this.har?.copy(grown, 0, 0, this.harSize);
      this.har = grown;
    }
    this.harSize += chunk.copy(this.har, this.harSize);
  }

  end(): { kind: 'capture'; head: CaptureHead } | { kind: 'har'; bytes: Buffer } {
    if (this.kind === undefined) this.start('capture');
    for (const p of this.pending.splice(0)) this.push(p, false);
    if (this.parser) return { kind: 'capture', head: this.parser.end() };
    return { kind: 'har', bytes: (this.har ?? Buffer.alloc(0)).subarray(0, this.harSize) };
  }

  abandon(): void {
    this.parser?.abandon();
  }

  private start(kind: 'capture' | 'har'): void {
    this.kind = kind;
    if (kind === 'capture') this.parser = new CaptureParser(this.name, this.sink);
  }
}
