// A listing's items as the bytes the server sent, where those bytes are exactly what booking would
// write for them anyway: ndjson then copies them instead of stringifying each item again (the largest
// cost of a long listing after the parse), and the paging engine hashes them to see a repeated page.
//
// An element's bytes are its compact JSON text (what jsonText writes for the parsed item) when they
// pass src/json-verbatim.ts: no whitespace outside strings, strings of ASCII without a backslash, no
// duplicate key and none that JSON.parse moves first; numbers print as sent (src/json.ts). Any other
// element is written the usual way. src/json-scan.ts records where the elements are.
import { MAX_RECORDED_BODY, type JsonScan, type RawArray } from '../base/json-scan';
import { verbatimElement, verbatimElements } from '../base/json-verbatim';

/** Where a page's items carry their RawItems (paginate.ts attaches them, the ndjson writer reads them). */
const RAW_ITEMS = Symbol('raw items');

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
   * one of them is copied (text(i) would give it) and none holds a DEL, the one character of theirs
   * the ndjson writer escapes; else undefined. Written as it is, it is what their texts would be.
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
    text: (i) => (verbatimElement(body, elements, i) ? body.toString('latin1', elements[3 * i]!, elements[3 * i + 1]!) : undefined),
    span: [trimStart(body, elements[0]!), trimEnd(body, elements[elements.length - 2]!)],
    lines: (count) =>
      count > 0 && count <= items.length && verbatimElements(body, elements, count) ? linesOf(body, elements, count) : undefined,
  };
}

/** The first `count` elements' bytes, each followed by a newline, in one buffer; undefined when one holds a DEL. */
function linesOf(body: Buffer, elements: readonly number[], count: number): Buffer | undefined {
  const end = elements[3 * (count - 1) + 1]!;
  const del = body.indexOf(0x7f, elements[0]!);
  if (del !== -1 && del < end) return undefined;
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

const isSpace = (b: number | undefined) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

function trimStart(body: Buffer, at: number): number {
  while (isSpace(body[at])) at++;
  return at;
}

function trimEnd(body: Buffer, at: number): number {
  while (at > 0 && isSpace(body[at - 1])) at--;
  return at;
}
