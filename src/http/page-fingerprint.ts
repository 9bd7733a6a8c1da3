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

/** A turn given to the event loop between slices of work (src/base/checkpoint.ts); none by default. */
export type Turn = () => Promise<void>;
const noTurn: Turn = async () => {};

/**
 * A page's items, hashed: equal for two pages with the same items whatever else their bodies carry (a
 * fresh cursor, a request id, a time). It hashes the raw bytes the items occupy in the body, found from
 * the first and the last item's JSON text (the head of one and the tail of the other searched natively,
 * then compared); where the body writes them otherwise (pretty-printed, other escapes), the items' own
 * JSON text. Empty pages are not fingerprinted: they are bounded by count instead (paginate.ts).
 * In a big body the items' text is written and compared in batches (jsonBatches), never whole: a page
 * of one huge item would otherwise hold two or three more copies of its body while it is fingerprinted;
 * `turn` is awaited between batches, so that Ctrl-C is seen while a page of tens of MB is compared.
 */
export async function itemsFingerprint(raw: Buffer, items: unknown[], turn: Turn = noTurn): Promise<string> {
  const span = await itemsSpan(raw, items, turn);
  if (span) return spanFingerprint(raw, items.length, span);
  // The same bytes a compact body holds between its brackets, so both ways agree on compact bodies.
  const hash = hasher().update(`${items.length}\n`);
  for (const text of jsonBatches(items, 1)) {
    hash.update(text);
    await turn();
  }
  return hash.digest('base64');
}

/**
 * A page's items by identity: a hash of each item's `uid` (else `id`), in order; undefined when an item
 * has neither as a string or number. A server that ignores the cursor and sends its first page again
 * with one field that changes on every answer (a signed avatar URL, a served_at time) sends other
 * bytes each time, which itemsFingerprint cannot see as a repeat: the same items by identity, in the
 * same order, on a page sent before, are the same page (review s34c, F2).
 */
export function idsFingerprint(items: unknown[]): string | undefined {
  let text = `${items.length}\n`;
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return undefined;
    const record = item as Record<string, unknown>;
    const id = identity(record.uid) ?? identity(record.id);
    if (id === undefined) return undefined;
    text += `${id.length}:${id}`;
  }
  return fingerprint(text);
}

/** An identity as text: a string, a number, or a number kept exact (past 2^53). */
function identity(value: unknown): string | undefined {
  if (typeof value === 'string') return `s${value}`;
  if (typeof value === 'number') return `n${value}`;
  return isLosslessNumber(value) ? `n${value.value}` : undefined;
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
  /** The last PROBE characters (whole characters) and the length in UTF-8 bytes. */
  ending(): Promise<{ tail: string; bytes: number }>;
  /** Where the text ends in raw if it is there from byte `at`; else -1. */
  endAt(raw: Buffer, at: number): Promise<number>;
}

function wholeText(value: unknown): ItemText {
  const text = stringifyJson(value);
  const bytes = Buffer.from(text, 'utf8');
  const tail = wholeChars(text.slice(-PROBE));
  return {
    head: wholeChars(text.slice(0, PROBE)),
    ending: async () => ({ tail, bytes: bytes.length }),
    endAt: async (raw, at) => (raw.subarray(at, at + bytes.length).equals(bytes) ? at + bytes.length : -1),
  };
}

/** An item's text written batch by batch, never whole, with a turn between batches. */
function slicedText(value: unknown, turn: Turn): ItemText {
  const first = jsonBatches(value).next();
  return {
    head: first.done ? '' : wholeChars(first.value.slice(0, PROBE)),
    async ending() {
      let text = '';
      let bytes = 0;
      for (const batch of jsonBatches(value)) {
        bytes += Buffer.byteLength(batch, 'utf8');
        text = (text + batch).slice(-2 * PROBE);
        await turn();
      }
      return { tail: wholeChars(text.slice(-PROBE)), bytes };
    },
    async endAt(raw, at) {
      for (const batch of jsonBatches(value)) {
        const bytes = Buffer.from(batch, 'utf8');
        if (!raw.subarray(at, at + bytes.length).equals(bytes)) return -1;
        at += bytes.length;
        await turn();
      }
      return at;
    },
  };
}

/** The text without a half of a surrogate pair at either end (where a cut left one). */
function wholeChars(text: string): string {
  const from = (text.charCodeAt(0) & 0xfc00) === 0xdc00 ? 1 : 0;
  const to = (text.charCodeAt(text.length - 1) & 0xfc00) === 0xd800 ? text.length - 1 : text.length;
  return from === 0 && to === text.length ? text : text.slice(from, to);
}

// Text is handed on in batches of at least this many characters: one call per token (a number, a
// comma) cost the 3-million-element booking of issue 33 six million calls and Buffers per walk (7 s
// of `bookings watch`, and the garbage of them at its peak).
const BATCH = 16 * 1024;

/**
 * stringifyJson(value)'s text (compact, numbers as received) in batches of at least BATCH characters
 * (the last may be shorter), in order, made as they are asked for; `depth` 1 leaves out the outer
 * brackets of an array. A slice of a long string is escaped alone, which JSON's escapes allow (none
 * spans characters), never between the halves of a surrogate pair.
 */
function* jsonBatches(value: unknown, depth = 0): Generator<string, void, undefined> {
  const out = { text: '' };
  for (const _ of writeBatches(value, out, depth)) {
    yield out.text;
    out.text = '';
  }
  if (out.text !== '') yield out.text;
}

/** jsonBatches(value, depth), each handed to `out`. */
export function jsonSlices(value: unknown, out: (text: string) => void, depth = 0): void {
  for (const text of jsonBatches(value, depth)) out(text);
}

/**
 * Appends the value's text to out.text, and yields (nothing) whenever that holds a batch. Only
 * containers and long strings are walked by a generator of their own (one per member would cost a
 * generator for each of a wide object's numbers); other values are written inline.
 */
function* writeBatches(value: unknown, out: { text: string }, depth = 0): Generator<void, void, undefined> {
  const inline = inlineText(value);
  if (inline !== undefined) {
    if ((out.text += inline).length >= BATCH) yield;
  } else if (typeof value === 'string') {
    yield* writeLongString(value, out);
  } else if (Array.isArray(value)) {
    if (depth === 0) out.text += '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.text += ',';
      const v: unknown = value[i];
      const text = inlineText(v === undefined || typeof v === 'function' ? null : v);
      if (text === undefined) yield* writeBatches(v, out);
      else if ((out.text += text).length >= BATCH) yield;
    }
    if (depth === 0) out.text += ']';
  } else {
    out.text += '{';
    let first = true;
    for (const key of Object.keys(value as object)) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined || typeof v === 'function') continue;
      out.text += first ? `${JSON.stringify(key)}:` : `,${JSON.stringify(key)}:`;
      first = false;
      const text = inlineText(v);
      if (text === undefined) yield* writeBatches(v, out);
      else if ((out.text += text).length >= BATCH) yield;
    }
    out.text += '}';
  }
}

/** The text of a value written in one piece (not a container, not a long string); else undefined. */
function inlineText(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'string' && value.length > SLICE ? undefined : (JSON.stringify(value) ?? 'null');
  }
  return isLosslessNumber(value) ? value.value : undefined;
}

function* writeLongString(value: string, out: { text: string }): Generator<void, void, undefined> {
  out.text += '"';
  for (let from = 0; from < value.length; ) {
    let to = Math.min(value.length, from + SLICE);
    if (to < value.length && (value.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
    out.text += JSON.stringify(value.slice(from, to)).slice(1, -1);
    if (out.text.length >= BATCH) yield;
    from = to;
  }
  out.text += '"';
}

/** Whether the bytes from `at` on, past any whitespace, are `byte`. */
function nextIs(raw: Buffer, at: number, byte: number): boolean {
  while (at < raw.length && SPACE.has(raw[at]!)) at++;
  return raw[at] === byte;
}

/** Whether the bytes before `at`, past any whitespace, end in `byte`. */
function previousIs(raw: Buffer, at: number, byte: number): boolean {
  let b = at - 1;
  while (b >= 0 && SPACE.has(raw[b]!)) b--;
  return raw[b] === byte;
}

/**
 * Where the items array's content is in the body: from the first item's text just after a `[` to the
 * last item's text just before a `]`. It may take in more than the array (never less), which only makes
 * a repeat harder to see, never a new page look like an old one. A page of one item is compared once.
 */
async function itemsSpan(raw: Buffer, items: unknown[], turn: Turn): Promise<[number, number] | undefined> {
  const text = raw.length <= WHOLE ? wholeText : (value: unknown) => slicedText(value, turn);
  const first = text(items[0]);
  const one = items.length === 1;
  let start = -1;
  let firstEnd = -1;
  for (let from = 0, i = 0; i < TRIES && start < 0; i++) {
    const at = raw.indexOf(first.head, from, 'utf8');
    if (at < 0) return undefined;
    if (previousIs(raw, at, 0x5b)) {
      const end = await first.endAt(raw, at);
      if (end >= 0 && (!one || nextIs(raw, end, 0x5d))) [start, firstEnd] = [at, end];
    }
    from = at + 1;
  }
  if (start < 0) return undefined;
  if (one) return [start, firstEnd];
  const last = text(items[items.length - 1]);
  const { tail, bytes } = await last.ending();
  const tailBytes = Buffer.byteLength(tail, 'utf8');
  for (let before = raw.length, i = 0; i < TRIES && before >= 0; i++) {
    const found = raw.lastIndexOf(tail, before, 'utf8');
    if (found < 0) return undefined;
    const end = found + tailBytes;
    const at = end - bytes;
    if (at < firstEnd) return undefined;
    if (nextIs(raw, end, 0x5d) && (await last.endAt(raw, at)) === end) return [start, end];
    before = found - 1;
  }
  return undefined;
}
