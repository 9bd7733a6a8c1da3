// The HttpResponse handed to commands: the whole body in memory (at most --max-response-bytes),
// decoded on demand.
import { FailureError } from '../errors';
import { parseMarked } from '../json';
import type { HttpResponse } from './types';
import { escapeOneLine, requestName } from './failures';
import { MAX_DEPTH, scanJson, type JsonScan } from '../json-scan';
import { rawItems } from '../json-raw';

export function makeResponse(method: string, url: URL, status: number, headers: Record<string, string>, body: Buffer): HttpResponse {
  let parsed: { value: unknown; scan: JsonScan } | undefined;
  const text = () => body.toString('utf8');
  const contentType = headers['content-type'];
  const json = () => {
    parsed ??= parseBody(method, url, contentType, body);
    return parsed.value;
  };
  return {
    status,
    url,
    headers,
    body,
    text,
    json,
    rawItems(items) {
      return parsed && rawItems(body, parsed.scan, parsed.value, items);
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

function parseBody(method: string, url: URL, contentType: string | undefined, body: Buffer): { value: unknown; scan: JsonScan } {
  // Named only for a message: a listing parses thousands of bodies.
  const type = () => (contentType ? `content-type ${escapeOneLine(contentType, 80)}` : 'no content-type');
  const where = () => requestName(method, url);
  const start = bodyStart(body);
  const scan = scanJson(body, start);
  if (scan.tooDeep) throw new FailureError(`${where()}: the response nests deeper than ${MAX_DEPTH} levels; not read.`);
  if (blank(body, start)) throw new FailureError(`${where()}: expected JSON, got an empty body (${type()})`);
  try {
    // JSON.parse, with the numbers it would change handed to it as marked strings (src/json.ts).
    return { value: parseMarked(body, start, scan.numbers, scan.nulStrings), scan };
  } catch (err) {
    const why = escapeOneLine((err as Error).message ?? '', 100);
    throw new FailureError(`${where()}: the response is not valid JSON (${type()}): ${why}`);
  }
}
