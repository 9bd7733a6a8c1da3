// Fixed-size fingerprints for the paging engine's loop checks (contract, third round: "Bounded on any
// input"): every cursor followed and every page's items are remembered as a SHA-256, 44 characters
// whatever the cursor's or the page's size, so a long listing (or a hostile server's 8 MiB cursors)
// cannot make memory grow with what the server sends.
import { createHash } from 'node:crypto';
import { stringifyJson } from '../json';

/** The longest cursor or next-page URL followed: far above any real API's (Harvest, Graph: < 2 KiB). */
export const MAX_CURSOR_BYTES = 64 * 1024;

/** Whether a cursor or next-page URL is over MAX_CURSOR_BYTES (UTF-8), counted only when it may be. */
export function cursorTooLong(value: string): boolean {
  return value.length > MAX_CURSOR_BYTES / 3 && Buffer.byteLength(value, 'utf8') > MAX_CURSOR_BYTES;
}

export function fingerprint(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}

/**
 * A page's items, hashed: equal for two pages with the same items whatever else their bodies carry (a
 * fresh cursor, a request id, a time). It hashes the raw bytes the items occupy in the body, found from
 * the first and the last item's JSON text (two small stringifies and a native search, not a pass over
 * every item); where the body writes them otherwise (pretty-printed, other escapes), the items' own
 * JSON text. Empty pages are not fingerprinted: they are bounded by count instead (paginate.ts).
 */
export function itemsFingerprint(raw: Buffer, items: unknown[]): string {
  const hash = createHash('sha256').update(`${items.length}\n`);
  const first = stringifyJson(items[0]);
  const last = items.length === 1 ? first : stringifyJson(items[items.length - 1]);
  const span = itemsSpan(raw, first, last);
  if (span) hash.update(raw.subarray(span[0], span[1]));
  // The same bytes a compact body holds between its brackets, so both ways agree on compact bodies.
  else hash.update(stringifyJson(items).slice(1, -1));
  return hash.digest('base64');
}

const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const TRIES = 4;

/**
 * Where the items array's content is in the body: from the first item's text just after a `[` to the
 * last item's text just before a `]`. It may take in more than the array (never less), which only makes
 * a repeat harder to see, never a new page look like an old one.
 */
function itemsSpan(raw: Buffer, first: string, last: string): [number, number] | undefined {
  let start = -1;
  for (let from = 0, i = 0; i < TRIES && start < 0; i++) {
    const at = raw.indexOf(first, from, 'utf8');
    if (at < 0) return undefined;
    let b = at - 1;
    while (b >= 0 && SPACE.has(raw[b]!)) b--;
    if (raw[b] === 0x5b) start = at;
    from = at + 1;
  }
  if (start < 0) return undefined;
  const lastBytes = Buffer.byteLength(last, 'utf8');
  for (let before = raw.length, i = 0; i < TRIES && before >= 0; i++) {
    const at = raw.lastIndexOf(last, before, 'utf8');
    if (at < start) return undefined;
    let a = at + lastBytes;
    while (a < raw.length && SPACE.has(raw[a]!)) a++;
    if (raw[a] === 0x5d) return [start, at + lastBytes];
    before = at - 1;
  }
  return undefined;
}
