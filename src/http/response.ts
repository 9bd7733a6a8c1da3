// The HttpResponse handed to commands: the whole body in memory (at most --max-response-bytes),
// decoded on demand.
import { CliError, FailureError } from '../base/errors';
import { checkpoint } from '../base/checkpoint';
import { parseScanned } from '../output/json';
import { parseInPieces } from '../output/json-pieces';
import type { HttpResponse } from './types';
import { escapeOneLine, requestName } from './failures';
import { MAX_DEPTH, scanJson, scanJsonInTurns, type JsonScan } from '../base/json-scan';
import { rawItems } from '../output/json-raw';

export function makeResponse(method: string, url: URL, status: number, headers: Record<string, string>, body: Buffer): HttpResponse {
  let parsed: { value: unknown; scan: JsonScan } | undefined;
  const text = () => body.toString('utf8');
  const contentType = headers['content-type'];
  const json = () => {
    parsed ??= parseBody(method, url, contentType, body);
    return parsed.value;
  };
  const jsonInTurns = async (signal?: AbortSignal) => {
    if (parsed || body.length < IN_TURNS) return json();
    // Scanned a part at a time, and parsed in pieces (src/output/json-pieces.ts): Ctrl-C is seen
    // between them, and no text of the whole body is made.
    const turn = checkpoint(signal);
    const start = bodyStart(body);
    const scan = await scanJsonInTurns(body, start, SCAN_PART, turn);
    const value = await decoded(method, url, contentType, body, start, scan, () => parseInPieces(body, start, scan, turn));
    parsed ??= { value, scan };
    return parsed.value;
  };
  return {
    status,
    url,
    headers,
    body,
    text,
    json,
    jsonInTurns,
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

// From this size a body is parsed in turns (jsonInTurns): its steps take long enough to matter to Ctrl-C.
const IN_TURNS = 4 * 1024 * 1024;
// Bytes scanned between two checkpoints (a few milliseconds).
const SCAN_PART = 1024 * 1024;

function parseBody(method: string, url: URL, contentType: string | undefined, body: Buffer): { value: unknown; scan: JsonScan } {
  const start = bodyStart(body);
  const scan = scanJson(body, start);
  // JSON.parse, with the numbers it would change handed to it as marked strings (src/output/json.ts).
  const value = decoded(method, url, contentType, body, start, scan, () => parseScanned(body, start, scan));
  return { value, scan };
}

/** `parse()`'s value, after the checks of the scan; its failure as a FailureError naming the request. */
function decoded<T>(
  method: string,
  url: URL,
  contentType: string | undefined,
  body: Buffer,
  start: number,
  scan: JsonScan,
  parse: () => T,
): T {
  // Named only for a message: a listing parses thousands of bodies.
  const type = () => (contentType ? `content-type ${escapeOneLine(contentType, 80)}` : 'no content-type');
  const where = () => requestName(method, url);
  if (scan.tooDeep) throw new FailureError(`${where()}: the response nests deeper than ${MAX_DEPTH} levels; not read.`);
  if (blank(body, start)) throw new FailureError(`${where()}: expected JSON, got an empty body (${type()})`);
  const failed = (err: unknown) => {
    if (err instanceof CliError) throw err; // Ctrl-C between the steps
    const why = escapeOneLine((err as Error).message ?? '', 100);
    throw new FailureError(`${where()}: the response is not valid JSON (${type()}): ${why}`);
  };
  try {
    const value = parse();
    return value instanceof Promise ? (value.catch(failed) as T) : value;
  } catch (err) {
    return failed(err);
  }
}
