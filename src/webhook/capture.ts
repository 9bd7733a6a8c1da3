// Reading a raw HTTP request capture (request line, headers, blank line, body): a small HTTP/1.1
// request parser of our own, incremental, so that a capture of any size is read in chunks. It takes
// what servers take: CRLF or bare-LF line ends (as hand edits leave them), Content-Length or chunked
// framing (de-chunked, trailers skipped), and, without either, the rest of the file as the body (HTTP
// says no body, but a hand-made capture means "the rest"). Bytes after the message (an editor's final
// newline) are ignored: one capture, one delivery. Parsing only: reader.ts feeds it a file's or a
// stream's bytes.
import { UsageError } from '../base/errors';
import { formatBytes } from '../base/words';
import type { Sink } from './input';

export interface CaptureHead {
  method: string;
  url: string;
  /** Names and values in order, as in IncomingMessage.rawHeaders. */
  rawHeaders: string[];
}

/** All values of a header (`name` in lower case; names match in any case). */
export function headerValues(rawHeaders: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const n = rawHeaders[i]!;
    // The length first: most names differ in it, and then no lower-case copy is made (per header, per
    // lookup, per capture: thousands of captures feel it).
    if (n.length === name.length && (n === name || n.toLowerCase() === name)) out.push(rawHeaders[i + 1]!);
  }
  return out;
}

/** The most a capture's body may hold: what `listen` accepts (more gets 413). */
export const CAPTURE_LIMIT = 64 * 1024 * 1024;
// The most a capture file may hold: its body and room for the head and chunked framing. Bytes after
// the message are ignored but still read, so this also ends a FIFO or device that never stops.
export const CAPTURE_FILE_LIMIT = CAPTURE_LIMIT + 1024 * 1024;
// The head (request line and headers), and one chunk-size or trailer line, must end within these.
const HEAD_LIMIT = 64 * 1024;
const LINE_LIMIT = 4 * 1024;

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const REQUEST_LINE = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+) (\S+) HTTP\/(\d)\.(\d)$/;

/** Where the parser is in the message. */
type Phase =
  | { kind: 'head' }
  | { kind: 'length'; left: number }
  | { kind: 'rest' }
  | { kind: 'chunk-size' }
  | { kind: 'chunk-data'; left: number }
  | { kind: 'chunk-end' }
  | { kind: 'trailers' }
  | { kind: 'done' };

/** Why the bytes are not a request, in a user's words. */
class NotARequest extends Error {}

/**
 * One capture being parsed: push() its bytes in order, then end() for its head. The body, de-chunked,
 * goes to `sink` as it is parsed. Bytes that are not a complete HTTP request make a UsageError naming
 * `name`.
 */
export class CaptureParser {
  private phase: Phase = { kind: 'head' };
  private head: CaptureHead | undefined;
  /** Bytes of a line (or of the head) not yet complete. */
  private pending: Buffer[] = [];
  private pendingSize = 0;
  private size = 0;
  private bodyBytes = 0;
  private afterLf: 0 | 1 | 2 = 0;

  constructor(
    private readonly name: string,
    private readonly sink: Sink,
  ) {}

  push(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > CAPTURE_FILE_LIMIT) throw this.tooLarge();
    try {
      let at = 0;
      while (at < chunk.length && this.phase.kind !== 'done') at = this.step(chunk, at);
    } catch (err) {
      throw err instanceof NotARequest ? this.malformed(err.message) : err;
    }
  }

  end(): CaptureHead {
    if (this.size === 0) throw new UsageError(`${this.name} is empty, not an HTTP request capture.`);
    const { kind } = this.phase;
    if (kind === 'done' || kind === 'rest') return this.head!;
    if (kind === 'head' && this.pendingSize > 0 && !this.pendingText().includes('\n'))
      throw this.malformed('the first line is not an HTTP request line');
    throw this.malformed('it ends before the request does (truncated body, or no blank line after the headers)');
  }

  /** Nothing to give back: kept so that readers may say they stopped. */
  abandon(): void {}

  /** Takes what the current phase needs from chunk[at…]; returns where it stopped. */
  private step(chunk: Buffer, at: number): number {
    const phase = this.phase;
    switch (phase.kind) {
      case 'head': {
        const end = this.headEnd(chunk, at);
        if (end < 0) return this.keep(chunk, at, chunk.length, HEAD_LIMIT, 'the headers are larger than 64 KiB');
        this.keep(chunk, at, end, HEAD_LIMIT, 'the headers are larger than 64 KiB');
        this.readHead(this.takePending());
        return end;
      }
      case 'length':
      case 'chunk-data': {
        const take = Math.min(phase.left, chunk.length - at);
        this.body(chunk.subarray(at, at + take));
        phase.left -= take;
        if (phase.left === 0) this.phase = phase.kind === 'length' ? { kind: 'done' } : { kind: 'chunk-end' };
        return at + take;
      }
      case 'rest':
        this.body(chunk.subarray(at));
        return chunk.length;
      default:
        return this.chunkLine(chunk, at);
    }
  }

  /** The chunk-size line, the line end after a chunk's data, or a trailer line. */
  private chunkLine(chunk: Buffer, at: number): number {
    const eol = chunk.indexOf(0x0a, at);
    if (eol < 0) return this.keep(chunk, at, chunk.length, LINE_LIMIT, 'a chunk-size line is too long');
    this.keep(chunk, at, eol, LINE_LIMIT, 'a chunk-size line is too long');
    const line = this.takePending().toString('latin1').replace(/\r$/, '');
    const phase = this.phase;
    if (phase.kind === 'chunk-end') {
      if (line !== '') throw new NotARequest('a chunk is longer than its size says');
      this.phase = { kind: 'chunk-size' };
    } else if (phase.kind === 'trailers') {
      if (line === '') this.phase = { kind: 'done' };
    } else {
      const size = /^([0-9A-Fa-f]{1,15})[ \t]*(;.*)?$/.exec(line);
      if (!size) throw new NotARequest(`invalid chunk size ${JSON.stringify(line.slice(0, 40))}`);
      const left = Number.parseInt(size[1]!, 16);
      this.phase = left === 0 ? { kind: 'trailers' } : { kind: 'chunk-data', left };
    }
    return eol + 1;
  }

  /** Offset just past the blank line ending the head (CRLF, LF or mixed), or -1 if not in this chunk. */
  private headEnd(chunk: Buffer, at: number): number {
    // The blank line can straddle chunks (a pipe may hand a capture over a byte at a time): what the
    // last bytes were is kept in `afterLf`: 1 just after a LF, 2 after a LF and a CR.
    for (let i = at; i < chunk.length; i++) {
      const byte = chunk[i];
      if (byte === 0x0a) {
        if (this.afterLf > 0) return i + 1;
        this.afterLf = 1;
      } else this.afterLf = this.afterLf === 1 && byte === 0x0d ? 2 : 0;
    }
    return -1;
  }

  private readHead(bytes: Buffer): void {
    const lines = bytes
      .toString('latin1')
      .split('\n')
      .map((l) => l.replace(/\r$/, ''));
    const match = REQUEST_LINE.exec(lines[0]!);
    if (!match) throw new NotARequest('the first line is not an HTTP request line');
    const rawHeaders: string[] = [];
    for (const line of lines.slice(1)) {
      if (line === '') continue;
      if (/^[ \t]/.test(line)) throw new NotARequest('a header line is folded onto the next (obsolete line folding)');
      const colon = line.indexOf(':');
      const name = colon > 0 ? line.slice(0, colon) : '';
      if (!TOKEN.test(name)) throw new NotARequest(`invalid header line ${JSON.stringify(line.slice(0, 40))}`);
      // Header values are bytes; latin1 keeps each one as it was sent, as node's parser does.
      rawHeaders.push(name, line.slice(colon + 1).replace(/^[ \t]+|[ \t]+$/g, ''));
    }
    this.head = { method: match[1]!, url: match[2]!, rawHeaders };
    this.phase = this.framing(rawHeaders);
  }

  /** How the body is framed: chunked, Content-Length, or (neither) the rest of the capture. */
  private framing(rawHeaders: string[]): Phase {
    const codings = headerValues(rawHeaders, 'transfer-encoding');
    if (codings.length > 0) {
      const last = codings.join(',').split(',').pop()!.trim().toLowerCase();
      if (last !== 'chunked') throw new NotARequest(`a Transfer-Encoding that does not end in chunked (${last})`);
      return { kind: 'chunk-size' };
    }
    const lengths = headerValues(rawHeaders, 'content-length');
    if (lengths.length === 0) return { kind: 'rest' };
    const values = new Set(lengths.flatMap((v) => v.split(',').map((s) => s.trim())));
    const [only] = values;
    if (values.size !== 1 || !/^\d{1,15}$/.test(only!))
      throw new NotARequest(`invalid Content-Length ${JSON.stringify(lengths.join(', '))}`);
    const left = Number(only);
    return left === 0 ? { kind: 'done' } : { kind: 'length', left };
  }

  private body(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.bodyBytes += bytes.length;
    if (this.bodyBytes > CAPTURE_LIMIT) throw this.tooLarge();
    this.sink(bytes);
  }

  /** Holds chunk[from…to) until its line (or head) is whole, within `limit` bytes; returns `to`. */
  private keep(chunk: Buffer, from: number, to: number, limit: number, tooLong: string): number {
    if (to > from) {
      this.pending.push(Buffer.from(chunk.subarray(from, to)));
      this.pendingSize += to - from;
    }
    if (this.pendingSize > limit) throw new NotARequest(tooLong);
    return to;
  }

  private takePending(): Buffer {
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingSize = 0;
    return bytes;
  }

  private pendingText(): string {
    return Buffer.concat(this.pending).toString('latin1');
  }

  private tooLarge(): UsageError {
    return new UsageError(
      `${this.name} is larger than a capture may be (a body of at most ${formatBytes(CAPTURE_LIMIT)}, as \`webhook listen\` accepts); not read further.`,
    );
  }

  private malformed(why: string): UsageError {
    return new UsageError(
      `${this.name} is not an HTTP request capture: ${why}.`,
      'A capture is a request line, headers, a blank line and the body, as `webhook listen` saves them.',
    );
  }
}
