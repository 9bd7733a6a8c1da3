// A listing's items as the bytes the server sent, where those bytes are exactly what booking would
// write for them anyway: ndjson then copies them instead of stringifying each item again (the largest
// cost of a long listing after the parse), and the paging engine hashes them to see a repeated page.
//
// An element's bytes are its compact JSON text (what jsonText writes for the parsed item) when:
// - they hold no whitespace outside strings and no backslash (so every string is written as it is:
//   JSON.stringify escapes only quotes, backslashes and control characters, which need one), and
//   only ASCII (no invalid UTF-8 that decoding would have replaced);
// - the parsed item has as many object keys as the bytes have colons (a duplicate key is kept once by
//   JSON.parse), and none that starts with a digit (JSON.parse puts array-index keys first);
// - numbers need no check: one JSON.parse would change is kept as its literal (src/json.ts), and any
//   other prints as it was sent.
// Any other element is written the usual way. src/json-scan.ts records where the elements are.
import { isAscii } from 'node:buffer';
import { MAX_RECORDED_BODY, type JsonScan, type RawArray } from './json-scan';
import { isLosslessNumber } from './json';

/** Where a page's items carry their RawItems (paginate.ts attaches them, the ndjson writer reads them). */
export const RAW_ITEMS = Symbol('raw items');

/** `items` with their raw texts attached (an array keeps its index → text mapping when cut from the end). */
export function withRawItems<T extends unknown[]>(items: T, raw: RawItems | undefined): T {
  // Not enumerable: the array is still the same data to anything that compares or copies it.
  if (raw) Object.defineProperty(items, RAW_ITEMS, { value: raw, configurable: true });
  return items;
}

/** The raw texts attached to `items`, if any. */
export function rawItemsOf(items: readonly unknown[]): RawItems | undefined {
  return (items as unknown as Record<symbol, RawItems | undefined>)[RAW_ITEMS];
}

export interface RawItems {
  /** Item i's compact JSON text as the server sent it, when it is what booking would write; else undefined. */
  text(i: number): string | undefined;
  /** [start, end) of the items in the body: from the first item's first byte to the last's last, no whitespace. */
  span: [number, number];
  /**
   * The lines of the first `count` items as one buffer, each item's bytes and a newline, when every
   * one of them is copied (text(i) would give it) and none holds a DEL, the one ASCII character the
   * ndjson writer escapes; else undefined. Written as it is, it is what their texts would be.
   */
  lines(count: number): Buffer | undefined;
}

/** The raw texts of `items`, when they are an array the scan recorded (the body, or one of its fields). */
export function rawItems(body: Buffer, scan: JsonScan, parsed: unknown, items: unknown[]): RawItems | undefined {
  // A bigger body's bytes are let go of once parsed (src/json.ts); holding them for its texts would undo that.
  if (body.length > MAX_RECORDED_BODY) return undefined;
  const array = arrayOf(scan.arrays, parsed, items);
  if (!array || array.elements.length !== items.length * 3 || items.length === 0) return undefined;
  const elements = array.elements;
  return {
    text(i) {
      const keys = elements[3 * i + 2]!;
      if (keys < 0) return undefined;
      const start = elements[3 * i]!;
      const end = elements[3 * i + 1]!;
      if (!isAscii(body.subarray(start, end)) || countKeys(items[i]) !== keys) return undefined;
      return body.toString('latin1', start, end);
    },
    span: [trimStart(body, elements[0]!), trimEnd(body, elements[elements.length - 2]!)],
    lines(count) {
      if (count <= 0 || count > items.length) return undefined;
      // One check of the bytes from the first item to the last (the separators between are ASCII too).
      const all = body.subarray(elements[0]!, elements[3 * (count - 1) + 1]!);
      if (!isAscii(all) || all.indexOf(0x7f) !== -1) return undefined;
      for (let i = 0; i < count; i++) {
        const keys = elements[3 * i + 2]!;
        if (keys < 0 || countKeys(items[i]) !== keys) return undefined;
      }
      return copyLines(body, elements, count);
    },
  };
}

/** The first `count` elements' bytes, each followed by a newline, in one buffer. */
function copyLines(body: Buffer, elements: readonly number[], count: number): Buffer {
  let size = 0;
  for (let i = 0; i < count; i++) size += elements[3 * i + 1]! - elements[3 * i]! + 1;
  const out = Buffer.allocUnsafeSlow(size);
  let at = 0;
  for (let i = 0; i < count; i++) {
    at += body.copy(out, at, elements[3 * i]!, elements[3 * i + 1]!);
    out[at++] = 0x0a;
  }
  return out;
}

function arrayOf(arrays: RawArray[], parsed: unknown, items: unknown[]): RawArray | undefined {
  if (parsed === items) return arrays.find((a) => a.key === undefined);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const named = arrays.filter((a) => a.key !== undefined && (parsed as Record<string, unknown>)[a.key] === items);
  // A field written twice (the parse keeps the last) names two recorded arrays: neither is trusted.
  return named.length === 1 ? named[0] : undefined;
}

/** Object keys in the value, nested ones included; -1 when one starts with a digit. */
function countKeys(value: unknown): number {
  if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return 0;
  let n = 0;
  if (Array.isArray(value)) {
    for (const v of value) {
      const k = countKeys(v);
      if (k < 0) return -1;
      n += k;
    }
    return n;
  }
  for (const key in value) {
    const c = key.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39) return -1;
    const k = countKeys((value as Record<string, unknown>)[key]);
    if (k < 0) return -1;
    n += k + 1;
  }
  return n;
}

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function trimStart(body: Buffer, at: number): number {
  while (isSpace(body[at])) at++;
  return at;
}

function trimEnd(body: Buffer, at: number): number {
  while (at > 0 && isSpace(body[at - 1])) at--;
  return at;
}

/**
 * The texts of an array whose every element passed src/json-verbatim.ts: each is its bytes, with no
 * check left to make (that module made them all, the parse included).
 */
export function verbatimItems(body: Buffer, elements: readonly number[]): RawItems {
  return {
    text: (i) => body.toString('latin1', elements[3 * i]!, elements[3 * i + 1]!),
    span: [elements[0]!, elements[elements.length - 2]!],
    lines: (count) => (count <= 0 || count > elements.length / 3 ? undefined : copyLines(body, elements, count)),
  };
}
