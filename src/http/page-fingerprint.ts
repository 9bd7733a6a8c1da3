// Fixed-size fingerprints for the paging engine's loop checks (contract, third round: "Bounded on any
// input"): every cursor followed and every page's items are remembered as a SHA-256, 44 characters
// whatever the cursor's or the page's size, so a long listing (or a hostile server's 8 MiB cursors)
// cannot make memory grow with what the server sends.
import type { Hash } from 'node:crypto';
import { isLosslessNumber, stringifyJson } from '../output/json';

// node:crypto costs ~3.5 ms to load: loaded at the first hash, not with this module, so that a run
// that pages no further than one page (--no-paginate, api without --paginate) never loads it.
let sha256: (() => Hash) | undefined;

function hasher(): Hash {
  if (!sha256) {
    const { createHash } = process.getBuiltinModule('node:crypto');
    sha256 = () => createHash('sha256');
  }
  return sha256();
}

/** The longest cursor or next-page URL followed: far above any real API's (Harvest, Graph: < 2 KiB). */
export const MAX_CURSOR_BYTES = 64 * 1024;

/** Whether a cursor or next-page URL is over MAX_CURSOR_BYTES (UTF-8), counted only when it may be. */
export function cursorTooLong(value: string): boolean {
  return value.length > MAX_CURSOR_BYTES / 3 && Buffer.byteLength(value, 'utf8') > MAX_CURSOR_BYTES;
}

export function fingerprint(text: string): string {
  return hasher().update(text).digest('base64');
}

/**
 * A page's items, hashed: equal for two pages with the same items whatever else their bodies carry (a
 * fresh cursor, a request id, a time). It hashes the raw bytes the items occupy in the body, found from
 * the first and the last item's JSON text (the head of one and the tail of the other searched natively,
 * then compared); where the body writes them otherwise (pretty-printed, other escapes), the items' own
 * JSON text. Empty pages are not fingerprinted: they are bounded by count instead (paginate.ts).
 * In a big body the items' text is written and compared in slices (jsonSlices), never whole: a page of
 * one huge item would otherwise hold two or three more copies of its body while it is fingerprinted.
 */
export function itemsFingerprint(raw: Buffer, items: unknown[]): string {
  const text = raw.length <= WHOLE ? wholeText : slicedText;
  const first = text(items[0]);
  const span = itemsSpan(raw, first, items.length === 1 ? first : text(items[items.length - 1]));
  if (span) return spanFingerprint(raw, items.length, span);
  // The same bytes a compact body holds between its brackets, so both ways agree on compact bodies.
  const hash = hasher().update(`${items.length}\n`);
  jsonSlices(items, (text) => void hash.update(text), 1);
  return hash.digest('base64');
}

/**
 * The fingerprint of `count` items whose bytes are raw[span[0]..span[1]) (the first item's first byte
 * to the last item's last): what itemsFingerprint makes of the same page, when the scan of the body
 * already knows where its items are (src/output/json-raw.ts).
 */
export function spanFingerprint(raw: Buffer, count: number, span: [number, number]): string {
  return hasher().update(`${count}\n`).update(raw.subarray(span[0], span[1])).digest('base64');
}

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const TRIES = 4;
// What is searched for natively: the head of the first item's text, the tail of the last's.
const PROBE = 256;
// The longest slice of a string written at once.
const SLICE = 64 * 1024;
// Up to this body size an item's text is made whole (one stringify, as fast as it gets).
const WHOLE = 1024 * 1024;

/** What the span search needs of an item's JSON text. */
interface ItemText {
  /** The first PROBE characters (whole characters). */
  head: string;
  /** The last PROBE characters (whole characters). */
  tail: string;
  /** The length in UTF-8 bytes. */
  bytes: number;
  /** Whether the text is in raw from byte `at` to byte `end`. */
  matches(raw: Buffer, at: number, end: number): boolean;
}

function wholeText(value: unknown): ItemText {
  const text = stringifyJson(value);
  const bytes = Buffer.from(text, 'utf8');
  return {
    head: wholeChars(text.slice(0, PROBE)),
    tail: wholeChars(text.slice(-PROBE)),
    bytes: bytes.length,
    matches: (raw, at, end) => end - at === bytes.length && raw.subarray(at, end).equals(bytes),
  };
}

function slicedText(value: unknown): ItemText {
  const { text, bytes } = tail(value);
  return { head: head(value), tail: text, bytes, matches: (raw, at, end) => matchAt(raw, at, value, end) };
}

/** The text without a half of a surrogate pair at either end (where a cut left one). */
function wholeChars(text: string): string {
  const from = (text.charCodeAt(0) & 0xfc00) === 0xdc00 ? 1 : 0;
  const to = (text.charCodeAt(text.length - 1) & 0xfc00) === 0xd800 ? text.length - 1 : text.length;
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

class Stop extends Error {}

// Slices are handed on in batches of at least this many characters: one call per token (a number, a
// comma) cost the 3-million-element booking of issue 33 six million calls and Buffers per walk (7 s
// of `bookings watch`, and the garbage of them at its peak).
const BATCH = 16 * 1024;

/**
 * stringifyJson(value)'s text (compact, numbers as received), handed to `out` in slices, in order;
 * `depth` 1 leaves out the outer brackets of an array. A slice of a long string is escaped alone,
 * which JSON's escapes allow (none spans characters), never between the halves of a surrogate pair.
 */
export function jsonSlices(value: unknown, out: (text: string) => void, depth = 0): void {
  let pending = '';
  writeSlices(
    value,
    (text) => {
      pending += text;
      if (pending.length < BATCH) return;
      out(pending);
      pending = '';
    },
    depth,
  );
  if (pending !== '') out(pending);
}

function writeSlices(value: unknown, out: (text: string) => void, depth = 0): void {
  if (value === null || typeof value !== 'object') {
    if (typeof value !== 'string' || value.length <= SLICE) {
      out(JSON.stringify(value) ?? 'null');
      return;
    }
    out('"');
    for (let from = 0; from < value.length; ) {
      let to = Math.min(value.length, from + SLICE);
      if (to < value.length && (value.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
      out(JSON.stringify(value.slice(from, to)).slice(1, -1));
      from = to;
    }
    out('"');
    return;
  }
  if (isLosslessNumber(value)) {
    out(value.value);
    return;
  }
  if (Array.isArray(value)) {
    if (depth === 0) out('[');
    value.forEach((v, i) => {
      if (i > 0) out(',');
      writeSlices(v === undefined || typeof v === 'function' ? null : v, out);
    });
    if (depth === 0) out(']');
    return;
  }
  out('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || typeof v === 'function') continue;
    out(first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`);
    first = false;
    writeSlices(v, out);
  }
  out('}');
}

/** The value's text's head, written slice by slice until there is enough of it. */
function head(value: unknown): string {
  let text = '';
  try {
    jsonSlices(value, (slice) => {
      text += slice;
      if (text.length >= PROBE) throw new Stop();
    });
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return wholeChars(text.slice(0, PROBE));
}

/** The value's text's tail and UTF-8 length, written slice by slice. */
function tail(value: unknown): { text: string; bytes: number } {
  let text = '';
  let bytes = 0;
  jsonSlices(value, (slice) => {
    bytes += Buffer.byteLength(slice, 'utf8');
    text = (text + slice).slice(-2 * PROBE);
  });
  return { text: wholeChars(text.slice(-PROBE)), bytes };
}

/** Whether the value's text is in raw from byte `at` to byte `end`. */
function matchAt(raw: Buffer, at: number, value: unknown, end: number): boolean {
  try {
    jsonSlices(value, (slice) => {
      const bytes = Buffer.from(slice, 'utf8');
      if (at + bytes.length > end || !raw.subarray(at, at + bytes.length).equals(bytes)) throw new Stop();
      at += bytes.length;
    });
  } catch (err) {
    if (err instanceof Stop) return false;
    throw err;
  }
  return at === end;
}

/**
 * Where the items array's content is in the body: from the first item's text just after a `[` to the
 * last item's text just before a `]`. It may take in more than the array (never less), which only makes
 * a repeat harder to see, never a new page look like an old one.
 */
function itemsSpan(raw: Buffer, first: ItemText, last: ItemText): [number, number] | undefined {
  let start = -1;
  for (let from = 0, i = 0; i < TRIES && start < 0; i++) {
    const at = raw.indexOf(first.head, from, 'utf8');
    if (at < 0) return undefined;
    let b = at - 1;
    while (b >= 0 && SPACE.has(raw[b]!)) b--;
    if (raw[b] === 0x5b && first.matches(raw, at, at + first.bytes)) start = at;
    from = at + 1;
  }
  if (start < 0) return undefined;
  const tailBytes = Buffer.byteLength(last.tail, 'utf8');
  for (let before = raw.length, i = 0; i < TRIES && before >= 0; i++) {
    const found = raw.lastIndexOf(last.tail, before, 'utf8');
    if (found < 0) return undefined;
    const end = found + tailBytes;
    const at = end - last.bytes;
    if (at < start) return undefined;
    let a = end;
    while (a < raw.length && SPACE.has(raw[a]!)) a++;
    if (raw[a] === 0x5d && last.matches(raw, at, end)) return [start, end];
    before = found - 1;
  }
  return undefined;
}
