// Reading a raw HTTP request capture (request line, headers, blank line, body) with node's own HTTP
// parser, llhttp, so Content-Length, chunked framing and header rules are those of a real server.
//
// The parser is driven directly (HTTPParser from node's _http_common) rather than through an
// http.Server fed an in-process socket: that path costs ~100 µs per capture in connection set-up, the
// direct one ~10 µs, and `verify --request` of thousands of captures must cost little more than a
// start. Lenient mode accepts bare-LF line ends.
import { createRequire } from 'node:module';
import { UsageError } from '../errors';
import { readFileChunks, type Sink } from './body-source';

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

/** All values of a header (case-insensitive name). */
export function headerValues(rawHeaders: string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name) out.push(rawHeaders[i + 1]!);
  return out;
}

const CRLF2 = Buffer.from('\r\n\r\n');
const LF2 = Buffer.from('\n\n');
const PAD = Buffer.from('\n');

interface ParseState {
  headers: string[];
  url: string;
  head: CaptureHead | undefined;
  done: boolean;
  bodyCalls: number;
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
    parser[HTTPParser.kOnHeadersComplete!] = function (this: StatefulParser, _maj: number, _min: number, h: string[] | undefined, method: number, u: string | undefined) {
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
      st.sink(b);
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
 * Parses the capture at `path`, streaming its body (de-chunked) into `sink`. A file that is not a
 * complete HTTP request is a UsageError naming it.
 */
export function parseCapture(path: string, sink: Sink): CaptureHead {
  const st: ParseState = { headers: [], url: '', head: undefined, done: false, bodyCalls: 0, sink };
  const parser = takeParser(st);
  let first: Buffer | undefined;
  let size = 0;
  try {
    readFileChunks(path, (chunk) => {
      first ??= Buffer.from(chunk.subarray(0, 64 * 1024));
      size += chunk.length;
      if (st.done) return; // bytes after the message (an editor's final newline) are not part of it
      const ret = parser.execute(chunk);
      if (ret instanceof Error && !st.done) throw malformed(path, ret);
    });
    if (!st.done && st.head && isLfStyle(first)) {
      // In lenient mode llhttp wants one byte past a bare-LF chunked ending ("0\n\n") to finish the
      // message. The pad is accepted only if it completes the message without becoming body bytes.
      const before = st.bodyCalls;
      const ret = parser.execute(PAD);
      if (ret instanceof Error || st.bodyCalls !== before) st.done = false;
    }
    if (size === 0) throw new UsageError(`${path} is empty, not an HTTP request capture.`);
    if (!st.done) {
      const ret = parser.finish();
      if (ret instanceof Error || !st.done) throw malformed(path, ret ?? new Error('truncated'));
    }
  } finally {
    giveBack(parser);
  }
  const captured = st.head!;
  if (!framed(captured.rawHeaders)) {
    // No Content-Length and not chunked: HTTP says no body, but a hand-made capture means "the rest
    // of the file". Take it, from the blank line that ends the head.
    const headEnd = findHeadEnd(first!);
    if (headEnd > 0 && headEnd < size) readFileChunks(path, sink, headEnd);
  }
  return captured;
}

function framed(rawHeaders: string[]): boolean {
  return headerValues(rawHeaders, 'content-length').length > 0 || headerValues(rawHeaders, 'transfer-encoding').length > 0;
}

function isLfStyle(first: Buffer | undefined): boolean {
  const eol = first?.indexOf(0x0a) ?? -1;
  return eol > 0 && first![eol - 1] !== 0x0d;
}

/** Offset just past the blank line that ends the head, in either line-end style; -1 if not found. */
function findHeadEnd(data: Buffer): number {
  const crlf = data.indexOf(CRLF2);
  const lf = data.indexOf(LF2);
  if (crlf === -1) return lf === -1 ? -1 : lf + 2;
  if (lf === -1 || crlf < lf) return crlf + 4;
  return lf + 2;
}

function malformed(path: string, err: Error): UsageError {
  const e = err as Error & { code?: string; reason?: string };
  const why =
    e.code === 'HPE_INVALID_EOF_STATE' || e.message === 'truncated'
      ? 'it ends before the request does (truncated body, or no blank line after the headers)'
      : `${e.reason ?? e.message}${e.code ? ` (${e.code})` : ''}`;
  return new UsageError(`${path} is not an HTTP request capture: ${why}.`, 'A capture is a request line, headers, a blank line and the body, as `webhook listen` saves them.');
}
