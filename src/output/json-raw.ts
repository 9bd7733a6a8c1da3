// A listing's items as the bytes the server sent, where those bytes are exactly what booking would
// write for them anyway: ndjson then copies them instead of stringifying each item again (the largest
// cost of a long listing after the parse), and the paging engine hashes them to see a repeated page.
//
// An element's bytes are its compact JSON text (what jsonText writes for the parsed item) when the scan
// found nothing in them written otherwise (src/base/json-scan.ts: no whitespace outside strings, no
// backslash, no duplicate key, none that JSON.parse moves first) and they are ASCII: then every string
// holds only characters from space up (JSON.parse refuses raw control characters), which JSON.stringify
// writes as they are. Numbers print as sent (src/output/json.ts). Any other element is written the
// usual way. All of this holds for a body JSON.parse has accepted, the only kind whose items there are.
import { isAscii } from 'node:buffer';
import { MAX_RECORDED_BODY, namedTwice, parsedArray, type JsonScan, type RawArray } from '../base/json-scan';

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
    text: (i) => (verbatim(body, elements, i, i + 1) ? body.toString('latin1', elements[3 * i]!, elements[3 * i + 1]!) : undefined),
    span: [trimStart(body, elements[0]!), trimEnd(body, elements[elements.length - 2]!)],
    lines: (count) =>
      count > 0 && count <= items.length && verbatim(body, elements, 0, count) ? linesOf(body, elements, count) : undefined,
  };
}

/**
 * Whether elements [from, to) are all written as sent: the scan's verdict, completed with whether their
 * bytes are ASCII, one native check over all of them (a page of clean elements is usually all ASCII),
 * then one per element if not. Kept in the verdict (1 or -1): a page's lines and each item's text ask
 * about the same elements.
 */
function verbatim(body: Buffer, elements: number[], from: number, to: number): boolean {
  let open = false;
  for (let i = from; i < to; i++) {
    const known = elements[3 * i + 2]!;
    if (known < 0) return false;
    if (known === 0) open = true;
  }
  if (!open) return true;
  if (isAscii(body.subarray(elements[3 * from]!, elements[3 * to - 2]!))) {
    for (let i = from; i < to; i++) elements[3 * i + 2] = 1;
    return true;
  }
  let all = true;
  for (let i = from; i < to; i++) {
    if (elements[3 * i + 2] !== 0) continue;
    const ascii = isAscii(body.subarray(elements[3 * i]!, elements[3 * i + 1]!));
    elements[3 * i + 2] = ascii ? 1 : -1;
    all &&= ascii;
  }
  return all;
}

/** The first `count` elements' bytes, each followed by a newline, in one buffer; undefined when one holds a DEL. */
function linesOf(body: Buffer, elements: readonly number[], count: number): Buffer | undefined {
  const start = elements[0]!;
  const end = elements[3 * (count - 1) + 1]!;
  const del = body.indexOf(0x7f, start);
  if (del !== -1 && del < end) return undefined;
  // An element ends at the comma before the next one (the scan records them so), and these hold no
  // whitespace: their span copied at once, each comma between them made a newline. One native copy
  // a page, not one per item.
  const out = Buffer.allocUnsafeSlow(end - start + 1);
  body.copy(out, 0, start, end);
  for (let i = 0; i < count - 1; i++) out[elements[3 * i + 1]! - start] = 0x0a;
  out[end - start] = 0x0a;
  return out;
}

function arrayOf(arrays: RawArray[], parsed: unknown, items: unknown[]): RawArray | undefined {
  const twice = namedTwice(arrays);
  return arrays.find((array) => parsedArray(parsed, array, twice) === items);
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
