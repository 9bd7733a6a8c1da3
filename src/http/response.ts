// The HttpResponse handed to commands: the whole body in memory (at most --max-response-bytes),
// decoded on demand.
import { FailureError } from '../base/errors';
import { parseMarked } from '../output/json';
import type { HttpResponse } from './types';
import { escapeOneLine, requestName } from './failures';
import { MAX_DEPTH, scanJson, type JsonScan } from '../base/json-scan';
import { rawItems } from '../output/json-raw';
import { parseLazily, type LazyBody } from '../output/json-lazy';

export function makeResponse(method: string, url: URL, status: number, headers: Record<string, string>, body: Buffer): HttpResponse {
  let scanned: JsonScan | undefined;
  let parsed: { value: unknown; scan: JsonScan } | undefined;
  // null: looked for, none (src/output/json-lazy.ts)
  let lazy: LazyBody | null | undefined;
  const text = () => body.toString('utf8');
  const contentType = headers['content-type'];
  const json = () => {
    parsed ??= parseBody(method, url, contentType, body, scanned);
    return parsed.value;
  };
  return {
    status,
    url,
    headers,
    body,
    text,
    json,
    jsonLazyItems() {
      if (parsed) return parsed.value;
      if (lazy === undefined) {
        scanned = scanJson(body, bodyStart(body));
        lazy = scanned.tooDeep
          ? null
          : (parseLazily(body, scanned.arrays, (bytes) => parseBody(method, url, contentType, bytes).value, json) ?? null);
      }
      return lazy ? lazy.value : json();
    },
    rawItems(items) {
      return lazy?.raw.get(items) ?? (parsed && rawItems(body, parsed.scan, parsed.value, items));
    },
  };
}

const BOM = Buffer.from('\uFEFF');

/** A body that is only whitespace (after any BOM). */
function blank(body: Buffer, start: number): boolean {
  for (let i = start; i < body.length; i++) {
    const b = body[i];
    if (b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09) return false;
  }
  return true;
}

const bodyStart = (body: Buffer) => (body.subarray(0, 3).equals(BOM) ? 3 : 0);

function parseBody(
  method: string,
  url: URL,
  contentType: string | undefined,
  body: Buffer,
  scanned?: JsonScan,
): { value: unknown; scan: JsonScan } {
  // Named only for a message: a listing parses thousands of bodies.
  const type = () => (contentType ? `content-type ${escapeOneLine(contentType, 80)}` : 'no content-type');
  const where = () => requestName(method, url);
  const start = bodyStart(body);
  const scan = scanned ?? scanJson(body, start);
  if (scan.tooDeep) throw new FailureError(`${where()}: the response nests deeper than ${MAX_DEPTH} levels; not read.`);
  if (blank(body, start)) throw new FailureError(`${where()}: expected JSON, got an empty body (${type()})`);
  try {
    // JSON.parse, with the numbers it would change handed to it as marked strings (src/output/json.ts).
    return { value: parseMarked(body, start, scan.numbers, scan.nulStrings), scan };
  } catch (err) {
    const why = escapeOneLine((err as Error).message ?? '', 100);
    throw new FailureError(`${where()}: the response is not valid JSON (${type()}): ${why}`);
  }
}
