// One quick pass over a JSON body before it is parsed, for two things JSON.parse cannot be asked:
// - how deep it nests: printing (and walking) a value recurses, so a document nested deeper than
//   MAX_DEPTH is refused here, as an error naming the request, rather than a stack overflow later;
// - which numbers JSON.parse would change: one it cannot give back byte for byte (more than 15
//   significant digits, 1.50, 1e3, -0, 1e400). Their places are recorded, so that src/json.ts can
//   hand them to JSON.parse as marked strings and keep every digit (parseMarked).
// - where the elements of a listing's array are (the body itself, or the value of one of its fields),
//   and whether each one's bytes are written as they are once JSON.parse has accepted the body
//   (src/output/json-raw.ts): their bytes, copied, are then the elements' ndjson lines, which saves
//   stringifying them again.
// - where its long string values are, and (scanJsonInTurns, in parts with a turn between them) every
//   array's elements in a big body, and where the members of its big objects are: src/output/json-pieces.ts
//   parses such a body in pieces.
// One loop over the bytes: a fraction of what the parse itself costs.

export const MAX_DEPTH = 1000;

/**
 * Element spans are recorded only in bodies up to this size: a bigger body's bytes are let go of as
 * soon as it is parsed (src/json.ts), so its items are never copied, and a big array's spans (three
 * numbers per element) would only add to its memory.
 */
export const MAX_RECORDED_BODY = 8 * 1024 * 1024;

export interface JsonScan {
  /** Deeper than MAX_DEPTH: not parsed. */
  tooDeep: boolean;
  /** [start, end) byte offsets of every number JSON.parse would not give back as sent, in order. */
  numbers: number[];
  /**
   * Offsets just past the opening quote of every string that starts with U+0000 (written `\u0000`):
   * the character that marks a number, so such strings are marked too (see src/json.ts).
   */
  nulStrings: number[];
  /** The arrays at the top of the body (it, or its fields' values), with where each element is. */
  arrays: RawArray[];
  /**
   * [start, end) of every string value of LONG_STRING bytes or more, its quotes included: a body
   * parsed in pieces decodes them from its bytes, not from a text of the whole body.
   */
  longStrings: number[];
  /**
   * scanJsonInTurns only: each object of SPLIT_OBJECT bytes or more, as the offsets of its `{`, of the
   * commas between its members and of its `}` (in the order the objects close): a big object is parsed
   * a batch of members at a time, and a big member object in turn.
   */
  objects?: number[][];
  /**
   * Per number in `numbers`, where it is when it is the value of a field of an element written as
   * sent (compact, no escape): the index of its array in `arrays`, of its element, and the [start, end)
   * of the field's name. Then JSON.parse of the body with each such field set to the number's text
   * is the lossless parse (src/output/json.ts parseScanned). Only while `inFields`.
   */
  fields: number[];
  /** Whether every number so far is in `fields`. */
  inFields: boolean;
}

const SPLIT_OBJECT = 64 * 1024;

const LONG_STRING = 1024 * 1024;

/** An array at the top of a body: the body itself (key undefined), or the value of its field `key`. */
export interface RawArray {
  /**
   * The field's name as JSON.parse reads it (UTF-8, escapes decoded: "d\u0061ta" is `data`), so that
   * a field written twice, once escaped, is seen as written twice; undefined for the body itself.
   */
  key: string | undefined;
  /**
   * Per element, three numbers: its [start, end) byte offsets (the bytes between the separators,
   * whitespace included) and its verdict: -1 when, parsed and written again, its bytes would differ
   * from these (whitespace outside a string, a backslash in one, an object with a key twice, a key
   * that starts with a digit, which JSON.parse moves first, or more than MAX_KEYS keys), else 0: the
   * same bytes if they are ASCII, which src/output/json-raw.ts finds out (and keeps there, 1 or -1).
   * Only for a body JSON.parse accepts: the scan does not check JSON's grammar.
   */
  elements: number[];
}

/** The names of the recorded arrays that are fields written twice (JSON.parse keeps the last: neither is trusted). */
export function namedTwice(arrays: readonly RawArray[]): Set<string> {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const { key } of arrays) {
    if (key === undefined) continue;
    if (seen.has(key)) twice.add(key);
    seen.add(key);
  }
  return twice;
}

/**
 * The array JSON.parse made of `array` in `parsed` (the body's value): the body itself, or the body's
 * own field of that name, unless the name is in `twice` (namedTwice); else undefined.
 */
export function parsedArray(parsed: unknown, array: RawArray, twice: ReadonlySet<string>): unknown[] | undefined {
  const { key } = array;
  let value: unknown = parsed;
  if (key !== undefined) {
    if (twice.has(key) || typeof parsed !== 'object' || parsed === null) return undefined;
    value = Object.getOwnPropertyDescriptor(parsed, key)?.value;
  }
  return Array.isArray(value) ? value : undefined;
}

/** An element holding an object of more keys than this is written the usual way: the repeated-key check is quadratic. */
const MAX_KEYS = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const NUL_ESCAPE = Buffer.from('\\u0000');

function isNumberByte(b: number): boolean {
  // 0-9 - + . e E
  return (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45;
}

/**
 * Where the string whose opening quote is at `open` ends: the offset of its closing quote (escapes
 * stepped over), or body.length when it never closes. The byte walkers' one string loop (har-scan.ts,
 * json-pieces.ts, send's json-scan.ts); scanPart below keeps its own, as it notes escapes on the way.
 */
export function stringEnd(body: Buffer, open: number): number {
  let i = open + 1;
  for (; i < body.length; i++) {
    const c = body[i]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH) i++;
  }
  return body.length;
}

/** Whether the string that ended before `i` is a key: a colon follows, after any whitespace. */
export function isKey(body: Buffer, i: number): boolean {
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  return body[i] === 0x3a;
}

const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;

/**
 * True when JSON.stringify(JSON.parse(literal)) is not the literal itself. Not for what is no JSON
 * number at all (01, 1.2.3, a lone -) nor for a number where a key belongs: marked as a string, those
 * would parse; left alone, JSON.parse reports them.
 */
function changedByParse(literal: string): boolean {
  return String(Number(literal)) !== literal && JSON_NUMBER.test(literal);
}

/** The name of the field whose text is body[from, to): decoded as JSON.parse decodes it. */
function fieldName(body: Buffer, from: number, to: number, clean: boolean): string | undefined {
  const text = body.toString('utf8', from, to);
  if (clean) return text;
  try {
    return JSON.parse(`"${text}"`) as string;
  } catch {
    return undefined; // no JSON string: the parse reports the body
  }
}

/**
 * The keys of the open objects of the element being scanned: [start, end) per key, each object's after
 * its parent's. Per depth, where that depth's object's keys start and which key lengths it has (a bit
 * per length, modulo 32): a key of a length not seen yet in its object is no repeat, and most are not.
 * Fixed arrays reused by every scan: an element with more open keys than `keys` holds (deep objects
 * of many keys) is written the usual way.
 */
const keys = new Int32Array(2 * 4096);
const frames = new Int32Array(MAX_DEPTH + 2);
const lengths = new Int32Array(MAX_DEPTH + 2);

/**
 * Records body[from, to) as the next key (at `top`) of the object at `depth` and returns the new top;
 * -1 when that object has it already, when it starts with a digit (JSON.parse moves array-index keys
 * first), or when the object has MAX_KEYS keys already.
 */
function newKey(body: Buffer, top: number, depth: number, from: number, to: number): number {
  const frame = frames[depth]!;
  if (top - frame >= 2 * MAX_KEYS || top + 2 > keys.length) return -1;
  const first = body[from]!;
  if (first >= 0x30 && first <= 0x39) return -1;
  const length = to - from;
  const bit = 1 << (length & 31);
  if ((lengths[depth]! & bit) !== 0) {
    for (let k = frame; k < top; k += 2) {
      const at = keys[k]!;
      if (keys[k + 1]! - at !== length) continue;
      let j = 0;
      while (j < length && body[at + j] === body[from + j]) j++;
      if (j === length) return -1;
    }
  }
  lengths[depth]! |= bit;
  keys[top] = from;
  keys[top + 1] = to;
  return top + 2;
}

export function scanJson(body: Buffer, start = 0): JsonScan {
  const scan: JsonScan = { tooDeep: false, numbers: [], nulStrings: [], arrays: [], longStrings: [], fields: [], inFields: true };
  scanPart(body, scan, startState(start, body.length - start <= MAX_RECORDED_BODY, LONG_STRING), body.length);
  return scan;
}

/**
 * scanJson in parts of `part` bytes with `turn()` between them (it may throw to stop), the arrays'
 * elements recorded whatever the body's size: for a body parsed in pieces (src/output/json-pieces.ts).
 * `longString`: from how many bytes a string is long, `splitObject` an object big (a test's small
 * bodies have them too).
 */
export async function scanJsonInTurns(
  body: Buffer,
  start: number,
  part: number,
  turn: () => Promise<void>,
  longString = LONG_STRING,
  splitObject = SPLIT_OBJECT,
): Promise<JsonScan> {
  const scan: JsonScan = {
    tooDeep: false,
    numbers: [],
    nulStrings: [],
    arrays: [],
    longStrings: [],
    objects: [],
    // A body scanned in turns is parsed in pieces, never by parseScanned: its numbers' fields unrecorded.
    fields: [],
    inFields: false,
  };
  const state = startState(start, true, longString, splitObject);
  while (state.i < body.length && !scan.tooDeep) {
    scanPart(body, scan, state, Math.min(body.length, state.i + part));
    await turn();
    // The open element's keys are in arrays every scan shares (see newKey), which another scan may
    // have used during the turn: that element is written the usual way, not copied.
    state.clean = false;
  }
  return scan;
}

/** Where a scan stands between its parts: the loop's variables (see scanPart). */
interface ScanState {
  i: number;
  record: boolean;
  longString: number;
  splitObject: number;
  depth: number;
  top: number;
  keyFrom: number;
  keyTo: number;
  keyClean: boolean;
  current: number[] | undefined;
  arrayDepth: number;
  element: number;
  clean: boolean;
  keyTop: number;
  /** Per depth, the open object's offsets so far (see JsonScan.objects); none for an array. */
  members: (number[] | undefined)[];
}

function startState(start: number, record: boolean, longString: number, splitObject = SPLIT_OBJECT): ScanState {
  return {
    i: start,
    record,
    longString,
    splitObject,
    depth: 0,
    top: 0,
    keyFrom: -1,
    keyTo: -1,
    keyClean: true,
    current: undefined,
    arrayDepth: 0,
    element: -1,
    clean: true,
    keyTop: 0,
    members: [],
  };
}

/**
 * The scan from state.i to `limit` (a string or number that crosses it is read to its end), into
 * `scan`: scanBytes over the bytes, scanEdge at the few it stops at (where the listing's array may
 * begin, each end of one of its elements, its end).
 *
 * Two functions because of how V8 compiles the loop. With the work done once a page (recording the
 * array, writing the state back) inside it, that work had no type feedback when V8 first optimized
 * the loop, mid-way through the first page: the next page deoptimized it and it was compiled again,
 * three or four times a run, each time the whole loop (docs/performance.md, "Lossless numbers").
 * Stopping at each end of an element, the loop runs a few hundred bytes a call, and all of it runs
 * on every element.
 */
function scanPart(body: Buffer, scan: JsonScan, state: ScanState, limit: number): void {
  while (state.i < limit && !scan.tooDeep) {
    scanBytes(body, scan, state, limit);
    if (state.i < limit && !scan.tooDeep) scanEdge(body, scan, state);
  }
}

/**
 * Up to `limit`, or to the first byte scanEdge handles (left at state.i): an opening bracket at depth
 * 0 or 1 outside the recorded array, a comma or closing bracket of the recorded array itself. The
 * loop's variables are locals while it runs, and go back into `state` after.
 */
function scanBytes(body: Buffer, scan: JsonScan, state: ScanState, limit: number): void {
  const { nulStrings, longStrings, objects } = scan;
  const end = body.length;
  const { longString, members, splitObject, current, arrayDepth } = state;
  let { i, depth } = state;
  // The last string that ended at depth 1 (a field name, when a '[' follows it).
  let { keyFrom, keyTo, keyClean } = state;
  // Whether the current element is written as sent so far, and the top of its keys (see newKey).
  let { clean, keyTop } = state;
  for (; i < limit; i++) {
    const b = body[i]!;
    if (b === QUOTE) {
      // A string that starts with the marker's character (only ever written as an escape: JSON has
      // no raw control characters in strings); rare, so one compare per string.
      const nul = body[i + 1] === BACKSLASH && body[i + 2] === 0x75 && NUL_ESCAPE.equals(body.subarray(i + 1, i + 7));
      const from = i + 1;
      let escaped = false;
      // To the closing quote, stepping over escapes. A loop, not indexOf: most strings are short, and
      // a native call per string costs more than reading their bytes here.
      for (i++; i < end; i++) {
        const c = body[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) {
          i++;
          escaped = true;
        }
      }
      if (escaped) clean = false;
      if (depth === 1) {
        keyFrom = from;
        keyTo = i;
        keyClean = !escaped;
      }
      // Values only: a key is never marked, nor walked.
      if (nul && !isKey(body, i + 1)) nulStrings.push(from);
      if (i - from >= longString && !isKey(body, i + 1)) longStrings.push(from - 1, i + 1);
      // A key of an element's object (a compact one: in any other, the whitespace makes it unclean).
      if (clean && current !== undefined && depth > arrayDepth && body[i + 1] === 0x3a) {
        keyTop = newKey(body, keyTop, depth, from, i);
        if (keyTop < 0) clean = false;
      }
    } else if (b === 0x7b || b === 0x5b) {
      // (depth first: a compare run at every bracket, where V8 has feedback for it.)
      if (depth < 2 && current === undefined) break;
      if (++depth > MAX_DEPTH) {
        scan.tooDeep = true;
        break;
      }
      if (objects !== undefined) members[depth] = b === 0x7b ? [i] : undefined;
      if (b === 0x7b && clean && current !== undefined) {
        frames[depth] = keyTop;
        lengths[depth] = 0;
      }
    } else if (b === 0x7d || b === 0x5d) {
      if (current !== undefined && depth === arrayDepth) break;
      if (objects !== undefined) closeMembers(objects, members, depth, b, i, splitObject);
      // The object's keys are done with (brackets that do not match leave another frame: no JSON anyway).
      if (b === 0x7d && clean && current !== undefined) keyTop = Math.min(keyTop, frames[depth]!);
      depth--;
    } else if ((b >= 0x30 && b <= 0x39) || b === 0x2d) {
      const from = i;
      let digits = true; // no fraction, exponent or sign after the first byte
      while (i + 1 < end && isNumberByte(body[i + 1]!)) {
        const c = body[++i]!;
        if (c < 0x30 || c > 0x39) digits = false;
      }
      const length = i + 1 - from;
      const first = b === 0x2d ? body[from + 1] : b;
      if (digits && b === 0x30 && length === 1) continue; // 0
      if (digits && first !== 0x30) {
        // An integer: up to 15 digits JSON.parse keeps; from 18 on, a double prints at most 17
        // significant digits, so one not ending in 0 (or too long to print without an exponent)
        // always changes. Those need no conversion to tell; the 16 and 17 digit ones do.
        const count = b === 0x2d ? length - 1 : length;
        if (count <= 15) continue;
        if (count >= 18 && (count >= 22 || body[i] !== 0x30)) {
          if (!isKey(body, i + 1)) addNumber(scan, from, i + 1, clean && depth === arrayDepth + 1 ? current : undefined, keyTop);
          continue;
        }
      }
      if (changedByParse(body.toString('latin1', from, i + 1)) && !isKey(body, i + 1))
        addNumber(scan, from, i + 1, clean && depth === arrayDepth + 1 ? current : undefined, keyTop);
    } else if (b === 0x2c) {
      if (current !== undefined && depth === arrayDepth) break;
      if (objects !== undefined) members[depth]?.push(i);
    } else if (b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09) {
      clean = false;
    }
  }
  state.i = i;
  state.depth = depth;
  state.keyFrom = keyFrom;
  state.keyTo = keyTo;
  state.keyClean = keyClean;
  state.clean = clean;
  state.keyTop = keyTop;
}

/**
 * The byte at state.i that scanBytes stopped at: an opening bracket at depth 0 or 1 outside the
 * recorded array (the listing's array is the body, or the value of one of its fields), or a comma
 * or the closing bracket of the recorded array.
 */
function scanEdge(body: Buffer, scan: JsonScan, state: ScanState): void {
  const i = state.i;
  const b = body[i]!;
  const { objects } = scan;
  const { members, current } = state;
  if (b === 0x7b || b === 0x5b) {
    const depth = ++state.depth;
    if (depth === 1) state.top = b;
    if (objects !== undefined) members[depth] = b === 0x7b ? [i] : undefined;
    if (state.record && b === 0x5b && (depth === 1 || state.top === 0x7b)) {
      const { keyFrom } = state;
      const elements: number[] = [];
      scan.arrays.push({ key: depth === 1 || keyFrom < 0 ? undefined : fieldName(body, keyFrom, state.keyTo, state.keyClean), elements });
      state.current = elements;
      state.arrayDepth = depth;
      newElement(state, i + 1);
    }
  } else if (b === 0x2c) {
    if (objects !== undefined) members[state.depth]?.push(i);
    current!.push(state.element, i, state.clean ? 0 : -1);
    newElement(state, i + 1);
  } else {
    if (objects !== undefined) closeMembers(objects, members, state.depth, b, i, state.splitObject);
    // The last element; `[]` has none (an array holding only whitespace records one, unclean).
    if (i > state.element) current!.push(state.element, i, state.clean ? 0 : -1);
    state.current = undefined;
    state.depth--;
  }
  state.i = i + 1;
}

/**
 * A number JSON.parse would change, at [from, to); `elements` are the recorded array's when it
 * is directly in one of them, written as sent so far (then its field's name is the last key newKey
 * kept, `keyTop` its top, if a colon is just before it).
 */
function addNumber(scan: JsonScan, from: number, to: number, elements: number[] | undefined, keyTop: number): void {
  scan.numbers.push(from, to);
  if (!scan.inFields) return;
  if (elements === undefined || keyTop < 2 || keys[keyTop - 1]! + 1 !== from - 1) {
    scan.inFields = false;
    return;
  }
  scan.fields.push(scan.arrays.length - 1, elements.length / 3, keys[keyTop - 2]!, keys[keyTop - 1]!);
}

function newElement(state: ScanState, at: number): void {
  state.element = at;
  state.clean = true;
  state.keyTop = 0;
}

/** A closing bracket at `depth`, for JsonScan.objects: an object's offsets end, and it is kept if big. */
function closeMembers(
  objects: number[][],
  members: (number[] | undefined)[],
  depth: number,
  b: number,
  i: number,
  splitObject: number,
): void {
  const open = b === 0x7d ? members[depth] : undefined;
  if (!open) return;
  open.push(i);
  if (i - open[0]! >= splitObject) objects.push(open);
  members[depth] = undefined;
}
