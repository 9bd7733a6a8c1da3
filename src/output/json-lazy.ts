// A listing page whose items are written as the server sent them (ndjson, src/json-raw.ts) need not
// have them parsed: parsing and then dropping 20,000 items is most of what such a listing costs after
// the requests. When every element of the page's array passes src/json-verbatim.ts, only the rest of
// the body (the envelope: cursors, counts, flags) is parsed, and the array is a stand-in of the right
// length that parses the whole body the usual way the first time anything reads an item. So whatever
// reads the items (the last one for a cursor, --limit's cut, any other writer) gets exactly what a
// parse would have given; what only counts them and copies their bytes never parses them.
import { type RawItems, RAW_ITEMS, verbatimItems } from './json-raw';
import type { RawArray } from '../base/json-scan';
import { verbatimElements } from '../base/json-verbatim';

export interface LazyBody {
  /** The body with the stand-ins in place of its verbatim arrays. */
  value: unknown;
  /** The raw texts of each stand-in. */
  raw: Map<unknown[], RawItems>;
}

/**
 * The body with its verbatim top-level arrays left unparsed, or undefined when it has none (or anything
 * is unusual: then the caller parses it whole). `parseBody` parses bytes as the response would;
 * `whole` gives the whole body parsed, once, for a stand-in's first read.
 */
export function parseLazily(
  body: Buffer,
  arrays: readonly RawArray[],
  parseBody: (bytes: Buffer) => unknown,
  whole: () => unknown,
): LazyBody | undefined {
  const names = arrays.map((a) => a.key);
  // A field written twice is parsed as its last value: not worth reasoning about, parsed whole.
  const lazy = arrays.filter(
    (a, i) =>
      a.elements.length > 0 && (a.key !== undefined || arrays.length === 1) && names.indexOf(a.key) === i && names.lastIndexOf(a.key) === i,
  );
  const verbatim = lazy.filter((a) => verbatimElements(body, a.elements));
  if (verbatim.length === 0) return undefined;
  // The envelope: the body without the elements of those arrays (`"data":[]`), parsed as usual.
  const parts: Buffer[] = [];
  let from = 0;
  for (const a of verbatim) {
    parts.push(body.subarray(from, a.elements[0]));
    from = a.elements[a.elements.length - 2]!;
  }
  parts.push(body.subarray(from));
  let envelope: unknown;
  try {
    envelope = parseBody(Buffer.concat(parts));
  } catch {
    return undefined; // parsed whole, which reports what is wrong
  }
  const raw = new Map<unknown[], RawItems>();
  const standIn = (a: RawArray, pick: (value: unknown) => unknown) => {
    const texts = verbatimItems(body, a.elements);
    const items = lazyArray(a.elements.length / 3, () => pick(whole()) as unknown[], texts);
    raw.set(items, texts);
    return items;
  };
  if (verbatim[0]!.key === undefined) {
    if (!Array.isArray(envelope) || envelope.length !== 0) return undefined;
    return { value: standIn(verbatim[0]!, (v) => v), raw };
  }
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return undefined;
  const fields = envelope as Record<string, unknown>;
  for (const a of verbatim) {
    const key = a.key!;
    const empty = fields[key];
    if (!Object.hasOwn(fields, key) || !Array.isArray(empty) || empty.length !== 0) return undefined;
    fields[key] = standIn(a, (v) => (v as Record<string, unknown>)[key]);
  }
  return { value: envelope, raw };
}

/**
 * An array of `length` items that are `realize()`d (once, all of them) when anything but its length
 * or raw texts is read. A Proxy, so that it is an array to Array.isArray, JSON.stringify, iteration,
 * slice and the rest, with the parsed items behind every read.
 */
function lazyArray(length: number, realize: () => unknown[], raw: RawItems): unknown[] {
  let real: unknown[] | undefined;
  const items = () => {
    if (!real) {
      real = realize();
      if (!Array.isArray(real) || real.length !== length)
        throw new Error('a listing parsed to another length than scanned (a bug in booking)');
    }
    return real;
  };
  const target: unknown[] = new Array(length);
  return new Proxy(target, {
    get: (_, key) => {
      if (key === 'length') return real ? real.length : length;
      if (key === RAW_ITEMS) return raw;
      if (real || (typeof key === 'string' && isIndex(key))) return Reflect.get(items(), key);
      // Array methods (they read the items through this proxy when called) and anything an array lacks:
      // `then`, asked of every value an async generator yields, does not parse the page.
      return Reflect.get(Array.prototype, key);
    },
    set: (_, key, value) => Reflect.set(items(), key, value),
    has: (_, key) => Reflect.has(items(), key),
    ownKeys: () => Reflect.ownKeys(items()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(items(), key),
    deleteProperty: (_, key) => Reflect.deleteProperty(items(), key),
    // The raw texts are already known (withRawItems would attach them again): no parse for that.
    defineProperty: (_, key, descriptor) => key === RAW_ITEMS || Reflect.defineProperty(items(), key, descriptor),
  });
}

/** An array index as a property key: "0", "17", not "01" or "-1". */
function isIndex(key: string): boolean {
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && String(n) === key;
}
