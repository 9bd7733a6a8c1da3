// Lossless JSON at the speed of JSON.parse: numbers keep the exact text the server sent
// (12345678901234567890 stays so, 1.50 stays 1.50, -0 stays -0, 1e400 stays 1e400), strings their
// characters, objects their key order.
//
// How: the scan (src/base/json-scan.ts) finds the numbers JSON.parse would change. parseMarked turns
// each into a string marked with a leading U+0000 ("\u0000" + the literal), JSON.parse keeps those
// exactly, and one walk over the result replaces them by JsonNumber objects. A real string that
// starts with U+0000 is marked too (a second U+0000), so the walk tells them apart without doubt.
// A page whose every such number is a field of one of its items (64-bit ids) skips the marks:
// JSON.parse of the body, then those fields set to JsonNumbers from where the scan saw them
// (parseScanned).
// On the way out, JSON.stringify writes a JsonNumber as the same marked string (toJSON) and one
// pass with indexOf turns it back into the bare literal. A real string could look like such a mark
// in the output: the number of marks replaced is checked against the number of JsonNumbers written,
// and on any difference the value is written by lossless-json's (slower, exact) stringify instead.
// Every number whose JSON.parse → JSON.stringify round trip is not the same text takes this path,
// fractions and exponents too: no number prints otherwise than it was received.
import { stringify as losslessStringify } from 'lossless-json';
import { escapeJsonText } from './escape';
import { isAscii } from 'node:buffer';
import { MAX_DEPTH, namedTwice, parsedArray, scanJson, type JsonScan } from '../base/json-scan';

const LOSSLESS_NUMBER = Symbol.for('lossless-json.LosslessNumber');
const MARK = '\u0000';

// JsonNumbers written (toJSON calls) since the current stringify began.
let written = 0;

/**
 * A JSON number kept as its text. Seen as a LosslessNumber by lossless-json (its stringify writes the
 * text as it is) and by isPlainObject.
 */
class JsonNumber {
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
  return parseScanned(body, 0, scan);
}

/**
 * The lossless parse of body[start..], scanned: parseMarked's value. When every number to keep is a
 * field of a listing's element written as sent (a page of items with 64-bit ids), it is JSON.parse of
 * the body with those fields set to JsonNumbers afterwards: no marked copy of the body, no walk
 * (the same value: test/in-process/json-fields.test.ts).
 */
export function parseScanned(body: Buffer, start: number, scan: JsonScan): unknown {
  const { numbers, fields, arrays, nulStrings } = scan;
  if (numbers.length === 0 || nulStrings.length > 0 || !scan.inFields) return parseMarked(body, start, numbers, nulStrings);
  const text = body.toString('utf8', start);
  const value: unknown = JSON.parse(text);
  const twice = namedTwice(arrays);
  const lists: (unknown[] | undefined)[] = [];
  for (let f = 0; f < fields.length; f += 4) {
    const array = arrays[fields[f]!]!;
    lists[fields[f]!] ??= parsedArray(value, array, twice);
    // Its array is not the one JSON.parse kept (a field written twice), or its element is not written
    // as sent (a key twice, say): the slow way.
    const items = lists[fields[f]!];
    if (items === undefined || items.length * 3 !== array.elements.length || array.elements[3 * fields[f + 1]! + 2]! < 0) {
      return parseMarked(body, start, numbers, nulStrings);
    }
  }
  // In an ASCII body a byte offset is the text's offset: slices of the text, not a decode each.
  const ascii = isAscii(body);
  for (let f = 0, n = 0; f < fields.length; f += 4, n += 2) {
    const name = ascii ? text.slice(fields[f + 2]! - start, fields[f + 3]! - start) : body.toString('utf8', fields[f + 2], fields[f + 3]);
    const literal = ascii ? text.slice(numbers[n]! - start, numbers[n + 1]! - start) : body.toString('latin1', numbers[n], numbers[n + 1]);
    // (`__proto__` too: JSON.parse made it an own field, which the assignment sets.)
    (lists[fields[f]!]![fields[f + 1]!] as Record<string, unknown>)[name] = new JsonNumber(literal);
  }
  return value;
}

const QUOTE_MARK = Buffer.from('"\\u0000');
const QUOTE = 0x22;

/**
 * JSON.parse of body[start..] with the numbers at `numbers` ([start, end) pairs from scanJson) kept
 * as JsonNumbers and the strings at `nulStrings` kept as they are. Both lists are in body order.
 */
export function parseMarked(body: Buffer, start: number, numbers: number[], nulStrings: number[]): unknown {
  if (numbers.length === 0) return JSON.parse(body.toString('utf8', start));
  const text = markedText(body, start, numbers, nulStrings);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // The message of the body as sent: positions and quoted text without the marks.
    JSON.parse(body.toString('utf8', start));
    throw err;
  }
  left = numbers.length / 2 + nulStrings.length;
  return unmarkAll(value);
}

/**
 * JSON.parse of a marked text (src/output/json-pieces.ts builds it): its `marks` marked strings
 * become what they stand for, a number's JsonNumber, or `pieces[k]` for the placeholder "\u0000~k".
 */
export function parseMarkedText(text: string, marks: number, pieces: readonly unknown[]): unknown {
  const value = JSON.parse(text);
  if (marks === 0) return value;
  left = marks;
  placed = pieces;
  try {
    return unmarkAll(value);
  } finally {
    placed = [];
  }
}

/** The body's text with each number marked (`"\u0000` + literal + `"`) and each U+0000-led string marked. */
function markedText(body: Buffer, start: number, numbers: number[], nulStrings: number[]): string {
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
  return out.toString('utf8', 0, at);
}

// Marked strings not yet met by the walk: it stops once all are found.
let left = 0;
// What the walk's placeholders stand for (parseMarkedText).
let placed: readonly unknown[] = [];
const PLACEHOLDER = 0x7e; // ~, which starts no number

function unmark(text: string): unknown {
  left--;
  const second = text.charCodeAt(1);
  if (second === 0) return text.slice(1);
  return second === PLACEHOLDER ? placed[Number(text.slice(2))] : new JsonNumber(text.slice(1));
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

/**
 * The text with every marked number (`"\u0000` + literal + `"`, as JSON.stringify writes U+0000)
 * replaced by the bare literal, and how many were replaced. A mark counts only where a string opens
 * (its quote is not escaped) and that string is a value (no colon follows: keys are never marked).
 * indexOf and slices, not a regex: backslashes are rare in JSON text, and this runs per line.
 */
function unmarkText(text: string, end: string): { text: string; found: number } {
  let i = text.indexOf('\\');
  if (i < 0) return { text: text + end, found: 0 };
  let out = '';
  let from = 0;
  let found = 0;
  for (; i >= 0; i = text.indexOf('\\', i + 2)) {
    if (text.charCodeAt(i - 1) !== QUOTE || text.charCodeAt(i - 2) === BACKSLASH || !text.startsWith('u0000', i + 1)) continue;
    let j = i + 6;
    while (j < text.length && isNumberChar(text.charCodeAt(j))) j++;
    if (j === i + 6 || text.charCodeAt(j) !== QUOTE || text.charCodeAt(j + 1) === COLON) continue;
    out += text.slice(from, i - 1) + text.slice(i + 6, j);
    from = j + 1;
    found++;
  }
  return { text: out + text.slice(from) + end, found };
}

const BACKSLASH = 0x5c;
const COLON = 0x3a;

function isNumberChar(c: number): boolean {
  // 0-9 - + . e E
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e || c === 0x65 || c === 0x45;
}

/** Two-space pretty JSON (indent 2) or compact (indent 0), numbers as they were received. */
export function stringifyJson(value: unknown, indent = 0): string {
  return writeJson(value, indent, (text) => text, '');
}

/** JSON for output: lossless, with no raw control or bidi character left in it; pretty when indent is 2. */
export function jsonText(value: unknown, indent = 0): string {
  return writeJson(value, indent, escapeJsonText, '');
}

/** jsonText and a newline: what the writers print for one value (one copy less than adding it after). */
export function jsonLine(value: unknown, indent = 0): string {
  return writeJson(value, indent, escapeJsonText, '\n');
}

/**
 * stringifyJson and a newline, not yet escaped: for a writer that escapes a whole slice of lines at
 * once with escapeJsonText (one scan per slice instead of one per line; the escape is per character,
 * so the text is the same).
 */
export function unescapedJsonLine(value: unknown, indent = 0): string {
  return writeJson(value, indent, same, '\n');
}

const same = (text: string) => text;

/**
 * JSON.stringify, `edit` (which must leave marks alone), then the marks replaced. In that order:
 * `edit` then runs on a flat string that is usually returned as it is, and the unmarked text is
 * slices of it, copied once when made flat.
 */
function writeJson(value: unknown, indent: number, edit: (text: string) => string, end: string): string {
  written = 0;
  const text = edit(JSON.stringify(value, null, indent || undefined) ?? 'null');
  const expected = written;
  const out = expected === 0 ? { text: text + end, found: 0 } : unmarkText(text, end);
  // A real string looked like a marked number: the exact (slower) writer.
  if (out.found !== expected) return edit(losslessStringify(value, undefined, indent || undefined) ?? 'null') + end;
  return out.text;
}

/**
 * A value as one field of a tsv or csv row, `escapeText` making a text safe: a nested value is compact
 * JSON that stays JSON, what could move a terminal in it written as \uXXXX (an escape for a terminal,
 * \x85, is not JSON, and a script reading the field as JSON would fail).
 */
export function fieldText(value: unknown, escapeText: (text: string) => string): string {
  const text = scalarText(value);
  return typeof value === 'object' && value !== null && !isLosslessNumber(value) ? escapeJsonText(text) : escapeText(text);
}

/** A JSON scalar as the plain text a table or tsv cell shows: numbers exactly as received. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isLosslessNumber(value)) return value.value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return stringifyJson(value);
}
