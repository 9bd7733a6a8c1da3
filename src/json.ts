// Lossless JSON at the speed of JSON.parse: numbers keep the exact text the server sent
// (12345678901234567890 stays so, 1.50 stays 1.50, -0 stays -0, 1e400 stays 1e400), strings their
// characters, objects their key order.
//
// How: the scan (src/http/json-scan.ts) finds the numbers JSON.parse would change. parseMarked turns
// each into a string marked with a leading U+0000 ("\u0000" + the literal), JSON.parse keeps those
// exactly, and one walk over the result replaces them by JsonNumber objects. A real string that
// starts with U+0000 is marked too (a second U+0000), so the walk tells them apart without doubt.
// On the way out, JSON.stringify writes a JsonNumber as the same marked string (toJSON) and one
// regex turns it back into the bare literal. A real string could look like such a marker in the
// output: the number of markers replaced is checked against the number of JsonNumbers written,
// and on any difference the value is written by lossless-json's (slower, exact) stringify instead.
import { stringify as losslessStringify } from 'lossless-json';
import { escapeJsonText } from './output/escape';
import { MAX_DEPTH, scanJson } from './http/json-scan';

const LOSSLESS_NUMBER = Symbol.for('lossless-json.LosslessNumber');
const MARK = '\u0000';

// JsonNumbers written (toJSON calls) since the current stringify began.
let written = 0;

/**
 * A JSON number kept as its text. Seen as a LosslessNumber by lossless-json (its stringify writes the
 * text as it is) and by isPlainObject.
 */
export class JsonNumber {
  declare readonly isLosslessNumber: true;
  constructor(readonly value: string) {}
  get [LOSSLESS_NUMBER](): true {
    return true;
  }
  toString(): string {
    return this.value;
  }
  /** The nearest double, for arithmetic: never used to print. */
  valueOf(): number {
    return Number(this.value);
  }
  toJSON(): string {
    written++;
    return MARK + this.value;
  }
}
Object.defineProperty(JsonNumber.prototype, 'isLosslessNumber', { value: true });

export function isLosslessNumber(value: unknown): value is { value: string } {
  return typeof value === 'object' && value !== null && (value as { [LOSSLESS_NUMBER]?: unknown })[LOSSLESS_NUMBER] === true;
}

/** Lossless parse of JSON text (a file, a test's data): what a response's json() gives. */
export function parseJson(text: string): unknown {
  const body = Buffer.from(text);
  const scan = scanJson(body);
  if (scan.tooDeep) throw new Error(`the JSON nests deeper than ${MAX_DEPTH} levels`);
  return parseMarked(body, 0, scan.numbers, scan.nulStrings);
}

const QUOTE_MARK = Buffer.from('"\\u0000');
const QUOTE = 0x22;

/**
 * JSON.parse of body[start..] with the numbers at `numbers` ([start, end) pairs from scanJson) kept
 * as JsonNumbers and the strings at `nulStrings` kept as they are. Both lists are in body order.
 */
export function parseMarked(body: Buffer, start: number, numbers: number[], nulStrings: number[]): unknown {
  if (numbers.length === 0) return JSON.parse(body.toString('utf8', start));
  // Each number gains `"\u0000` and `"`; each U+0000-led string one more `\u0000` after its quote.
  const out = Buffer.allocUnsafeSlow(body.length - start + (numbers.length / 2) * 8 + nulStrings.length * 6);
  let at = 0;
  let from = start;
  let n = 0;
  let s = 0;
  while (n < numbers.length || s < nulStrings.length) {
    if (s < nulStrings.length && (n >= numbers.length || nulStrings[s]! < numbers[n]!)) {
      const pos = nulStrings[s++]!;
      at += body.copy(out, at, from, pos);
      at += QUOTE_MARK.copy(out, at, 1);
      from = pos;
    } else {
      const [a, b] = [numbers[n]!, numbers[n + 1]!];
      n += 2;
      at += body.copy(out, at, from, a);
      at += QUOTE_MARK.copy(out, at);
      at += body.copy(out, at, a, b);
      out[at++] = QUOTE;
      from = b;
    }
  }
  at += body.copy(out, at, from);
  let value: unknown;
  try {
    value = JSON.parse(out.toString('utf8', 0, at));
  } catch (err) {
    // The message of the body as sent: positions and quoted text without the marks.
    JSON.parse(body.toString('utf8', start));
    throw err;
  }
  left = numbers.length / 2 + nulStrings.length;
  return unmarkAll(value);
}

// Marked strings not yet met by the walk: it stops once all are found.
let left = 0;

function unmark(text: string): unknown {
  left--;
  return text.charCodeAt(1) === 0 ? text.slice(1) : new JsonNumber(text.slice(1));
}

function unmarkAll(value: unknown): unknown {
  if (typeof value === 'string') return value.charCodeAt(0) === 0 ? unmark(value) : value;
  if (typeof value === 'object' && value !== null) walk(value as Record<string, unknown>);
  return value;
}

function walk(node: Record<string, unknown> | unknown[]): void {
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length && left > 0; i++) {
      const v = node[i];
      if (typeof v === 'string') {
        if (v.charCodeAt(0) === 0) node[i] = unmark(v);
      } else if (typeof v === 'object' && v !== null) walk(v as Record<string, unknown>);
    }
    return;
  }
  for (const k in node) {
    const v = node[k];
    if (typeof v === 'string') {
      if (v.charCodeAt(0) === 0) node[k] = unmark(v);
    } else if (typeof v === 'object' && v !== null) walk(v as Record<string, unknown>);
    if (left === 0) return;
  }
}

// A marked number as JSON.stringify writes it (U+0000 escaped): not after a backslash (that quote
// is inside a string), not before a colon (that is a key).
const WRITTEN_MARK = /(?<!\\)"\\u0000([-+.0-9eE]+)"(?!:)/g;

/** Two-space pretty JSON (indent 2) or compact (indent 0), numbers as they were received. */
export function stringifyJson(value: unknown, indent = 0): string {
  written = 0;
  const text = JSON.stringify(value, null, indent || undefined) ?? 'null';
  if (written === 0) return text;
  const expected = written;
  let found = 0;
  const out = text.replace(WRITTEN_MARK, (_, literal: string) => {
    found++;
    return literal;
  });
  if (found === expected) return out;
  // A real string looked like a marked number: the exact (slower) writer.
  return losslessStringify(value, undefined, indent || undefined) ?? 'null';
}

/** JSON for output: lossless, with no raw control or bidi character left in it; pretty when indent is 2. */
export function jsonText(value: unknown, indent = 0): string {
  return escapeJsonText(stringifyJson(value, indent));
}

/** A JSON scalar as the plain text a table or tsv cell shows: numbers exactly as received. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return stringifyJson(value);
}
