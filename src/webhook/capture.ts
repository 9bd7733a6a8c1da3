// Reading a raw HTTP request capture (request line, headers, blank line, body) with node's own HTTP
// parser, llhttp, so Content-Length, chunked framing and header rules are those of a real server.
//
// The parser is driven directly (HTTPParser from node's _http_common) rather than through an
// http.Server fed an in-process socket: that path costs ~100 µs per capture in connection set-up, the
// direct one ~10 µs, and `verify --request` of thousands of captures must cost little more than a
// start. Lenient mode accepts bare-LF line ends. Parsing only: reader.ts feeds it a file's or a
// stream's bytes.
import { createRequire } from 'node:module';
import { UsageError } from '../base/errors';
import { sizeText, type Sink } from './input';

interface LlhttpParser {
  initialize(type: number, resource: object, maxHeaderSize: number, lenient: number): void;
  execute(data: Buffer): number | Error;
  finish(): undefined | Error;
  close(): void;
  [callback: number]: unknown;
}
interface HttpCommon {
  HTTPParser: { new (): LlhttpParser; REQUEST: number; kLenientAll: number } & Record<string, number>;
  methods: string[];
}

let common: HttpCommon | undefined;
function httpCommon(): HttpCommon {
  return (common ??= createRequire(import.meta.url)('_http_common') as HttpCommon);
}

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

const HEAD_ENDS = ['\r\n\r\n', '\n\n', '\n\r\n'].map((s) => Buffer.from(s));
const PAD = Buffer.from('\n');
const EMPTY = Buffer.alloc(0);
// The head must end within this (llhttp refuses heads over 16 KiB).
const HEAD_KEEP = 64 * 1024;

/** The most a capture's body may hold: what `listen` accepts (more gets 413). */
export const CAPTURE_LIMIT = 64 * 1024 * 1024;
// The most a capture file may hold: its body and room for the head and chunked framing. Bytes after
// the message are ignored but still read, so this also ends a FIFO or device that never stops.
const CAPTURE_FILE_LIMIT = CAPTURE_LIMIT + 1024 * 1024;

interface ParseState {
  headers: string[];
  url: string;
  head: CaptureHead | undefined;
  done: boolean;
  bodyCalls: number;
  /** Body bytes so far; past CAPTURE_LIMIT they are no longer passed on, and the capture is refused. */
  bodyBytes: number;
  sink: Sink;
}
type StatefulParser = LlhttpParser & { state?: ParseState };

// One parser, initialized again for each capture as node's own server does with its pool: creating
// one per capture costs more than parsing a small capture does. Callbacks find the capture's state on
// the parser (llhttp calls them with the parser as `this`). After the first message completes,
// whatever follows is ignored: one capture, one delivery.
let idle: StatefulParser | undefined;

function takeParser(state: ParseState): StatefulParser {
  const { HTTPParser, methods } = httpCommon();
  let parser = idle;
  idle = undefined;
  if (!parser) {
    parser = new HTTPParser() as StatefulParser;
    parser[HTTPParser.kOnHeaders!] = function (this: StatefulParser, h: string[], u: string) {
      const st = this.state!;
      if (st.head) return;
      st.headers.push(...h);
      st.url += u;
    };
    parser[HTTPParser.kOnHeadersComplete!] = function (
      this: StatefulParser,
      _maj: number,
      _min: number,
      h: string[] | undefined,
      method: number,
      u: string | undefined,
    ) {
      const st = this.state!;
      if (st.head) return 0;
      if (h) st.headers.push(...h);
      st.head = { method: methods[method] ?? 'UNKNOWN', url: u ?? st.url, rawHeaders: st.headers };
      return 0;
    };
    parser[HTTPParser.kOnBody!] = function (this: StatefulParser, b: Buffer) {
      const st = this.state!;
      if (st.done) return;
      st.bodyCalls++;
      // Not thrown from here (a callback of the parser): feed() refuses the capture after execute().
      st.bodyBytes += b.length;
      if (st.bodyBytes <= CAPTURE_LIMIT) st.sink(b);
    };
    parser[HTTPParser.kOnMessageComplete!] = function (this: StatefulParser) {
      this.state!.done = true;
    };
  }
  parser.initialize(HTTPParser.REQUEST, {}, 0, HTTPParser.kLenientAll);
  parser.state = state;
  return parser;
}

function giveBack(parser: StatefulParser): void {
  parser.state = undefined;
  if (idle) parser.close();
  else idle = parser;
}

/**
 * One capture being parsed: push() its bytes in order, then end() for its head. The body, de-chunked,
 * goes to `sink` as it is parsed. Bytes that are not a complete HTTP request make a UsageError naming
 * `name`. The parser is given back on end() or on the first error.
 */
export class CaptureParser {
  private readonly st: ParseState;
  private parser: StatefulParser | undefined;
  /** Copies of the first bytes (up to HEAD_KEEP) while the message is incomplete; joined when needed. */
  private firstParts: Buffer[] = [];
  private size = 0;
  /** Set once the head is read: whether it frames the body (Content-Length or chunked). */
  private framed: boolean | undefined;

  constructor(
    private readonly name: string,
    sink: Sink,
  ) {
    this.st = { headers: [], url: '', head: undefined, done: false, bodyCalls: 0, bodyBytes: 0, sink };
    this.parser = takeParser(this.st);
  }

  push(chunk: Buffer): void {
    try {
      this.feed(chunk);
    } catch (err) {
      this.release();
      throw err;
    }
  }

  end(): CaptureHead {
    try {
      return this.finish();
    } finally {
      this.release();
    }
  }

  private feed(chunk: Buffer): void {
    const st = this.st;
    const before = this.size;
    this.size += chunk.length;
    if (this.size > CAPTURE_FILE_LIMIT) throw this.tooLarge();
    if (this.framed === false) {
      st.bodyBytes += chunk.length;
      if (st.bodyBytes > CAPTURE_LIMIT) throw this.tooLarge();
      st.sink(chunk);
      return;
    }
    if (st.done) return; // bytes after the message (an editor's final newline) are not part of it
    const ret = this.parser!.execute(chunk);
    if (st.bodyBytes > CAPTURE_LIMIT) throw this.tooLarge();
    if (ret instanceof Error && !st.done) throw malformed(this.name, ret);
    const part = before < HEAD_KEEP ? chunk.subarray(0, HEAD_KEEP - before) : undefined;
    if (st.head && this.framed === undefined) {
      this.framed = framed(st.head.rawHeaders);
      if (!this.framed) {
        // No Content-Length and not chunked: HTTP says no body, but a hand-made capture means "the
        // rest of the file". Take it, from the blank line that ends the head (it is in this chunk:
        // the head ended while parsing it).
        const first = this.firstParts.length === 0 ? (part ?? EMPTY) : Buffer.concat([...this.firstParts, part ?? EMPTY]);
        const headEnd = findHeadEnd(first);
        if (headEnd > 0 && headEnd < this.size) {
          const rest = chunk.subarray(Math.max(0, headEnd - before));
          st.bodyBytes += rest.length;
          if (st.bodyBytes > CAPTURE_LIMIT) throw this.tooLarge();
          st.sink(rest);
        }
      }
    }
    // The first bytes are kept only while the message is incomplete: finish() then looks at their
    // line ends, and the head's end may be in a later chunk. A capture read whole in one chunk, the
    // common case, needs no copy.
    if (part && !st.done) this.firstParts.push(Buffer.from(part));
  }

  private tooLarge(): UsageError {
    return new UsageError(
      `${this.name} is larger than a capture may be (a body of at most ${sizeText(CAPTURE_LIMIT)}, as \`webhook listen\` accepts); not read further.`,
    );
  }

  private finish(): CaptureHead {
    const st = this.st;
    const parser = this.parser!;
    if (!st.done && st.head && isLfStyle(this.first())) {
      // In lenient mode llhttp wants one byte past a bare-LF chunked ending ("0\n\n") to finish the
      // message. The pad is accepted only if it completes the message without becoming body bytes.
      const before = st.bodyCalls;
      const ret = parser.execute(PAD);
      if (ret instanceof Error || st.bodyCalls !== before) st.done = false;
    }
    if (this.size === 0) throw new UsageError(`${this.name} is empty, not an HTTP request capture.`);
    if (!st.done) {
      const ret = parser.finish();
      if (ret instanceof Error || !st.done) throw malformed(this.name, ret ?? new Error('truncated'));
    }
    return st.head!;
  }

  private first(): Buffer {
    if (this.firstParts.length !== 1) this.firstParts = [Buffer.concat(this.firstParts)];
    return this.firstParts[0]!;
  }

  /** Gives the parser back without a result (the read failed). */
  abandon(): void {
    this.release();
  }

  private release(): void {
    if (this.parser) giveBack(this.parser);
    this.parser = undefined;
  }
}

/** Whether a Content-Length or Transfer-Encoding header frames the body. */
function framed(rawHeaders: string[]): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const n = rawHeaders[i]!;
    if ((n.length === 14 && n.toLowerCase() === 'content-length') || (n.length === 17 && n.toLowerCase() === 'transfer-encoding'))
      return true;
  }
  return false;
}

function isLfStyle(first: Buffer): boolean {
  const eol = first.indexOf(0x0a);
  return eol > 0 && first[eol - 1] !== 0x0d;
}

/** Offset just past the blank line that ends the head, in either line-end style; -1 if not found. */
function findHeadEnd(data: Buffer): number {
  // Mixed ends too (LF headers and a CRLF blank line, as a hand edit can leave): llhttp accepts them.
  let end = -1;
  for (const blank of HEAD_ENDS) {
    const at = data.indexOf(blank);
    if (at !== -1 && (end === -1 || at + blank.length < end)) end = at + blank.length;
  }
  return end;
}

function malformed(path: string, err: Error): UsageError {
  const e = err as Error & { code?: string; reason?: string };
  const why =
    e.code === 'HPE_INVALID_EOF_STATE' || e.message === 'truncated'
      ? 'it ends before the request does (truncated body, or no blank line after the headers)'
      : `${e.reason ?? e.message}${e.code ? ` (${e.code})` : ''}`;
  return new UsageError(
    `${path} is not an HTTP request capture: ${why}.`,
    'A capture is a request line, headers, a blank line and the body, as `webhook listen` saves them.',
  );
}
