// Numbered bookings and their pages, for the test servers built on the sandbox's core
// (src/sandbox/core.ts): booking i is the same in every one of them, so a test can name what it
// expects (bk_0007) without asking the server. Ids are above 2^53, so their exact digits matter.
import { encodeCursor } from '../../src/sandbox/core';
import type { NextPage } from '../../src/sandbox/shapes';

const STATUSES = ['pending', 'confirmed', 'cancelled', 'completed'];

/** uid of booking i: bk_0000, bk_0001, … */
const uidOf = (i: number) => `bk_${String(i).padStart(4, '0')}`;
export const uidsUpTo = (n: number, from = 0) => Array.from({ length: n - from }, (_, k) => uidOf(from + k));

/** The number in a uid that uidOf wrote, else NaN. */
export const indexOfUid = (uid: string) => Number(/^bk_(\d{4})$/.exec(uid)?.[1] ?? NaN);

/** Booking i as JSON text. */
export function bookingJson(i: number): string {
  const n = String(i).padStart(4, '0');
  const start = new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + i * 3_600_000).toISOString();
  const end = new Date(Date.UTC(2026, 10, 1, 9, 30, 0) + i * 3_600_000).toISOString();
  return `{"uid":"${uidOf(i)}","id":${9007199254740993n + BigInt(i)},"title":"Meeting ${n}","status":"${STATUSES[i % 4]}","start":"${start}","end":"${end}","attendee":{"name":"Person ${n}","email":"p${n}@example.com"}}`;
}

/** The bookings from offset on, at most size of count, and the cursor of what follows (none at the end). */
export function slice(opts: { count: number; offset: number; size: number; item: (i: number) => string }): {
  items: string[];
  next?: string;
} {
  const end = Math.min(opts.offset + opts.size, opts.count);
  const items: string[] = [];
  for (let i = opts.offset; i < end; i++) items.push(opts.item(i));
  return end < opts.count ? { items, next: encodeCursor(end) } : { items };
}

/** The next page: this request's URL with its cursor replaced, every other parameter kept. */
export function nextPageAt(url: URL, cursor: string): NextPage {
  const u = new URL(url.href);
  u.searchParams.set('cursor', cursor);
  return { cursor, path: `${u.pathname}${u.search}`, url: u.href };
}
