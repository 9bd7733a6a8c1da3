// The fingerprints behind paging's loop checks (src/http/page-fingerprint.ts): a page's items hashed
// from the bytes they occupy in the body, equal whatever else the body carries, and cursors bounded.
import { describe, expect, it } from 'vitest';
import { cursorTooLong, itemsFingerprint, MAX_CURSOR_BYTES } from '../../src/http/page-fingerprint';

const page = (body: unknown, indent?: number) => {
  const raw = Buffer.from(JSON.stringify(body, null, indent));
  return itemsFingerprint(raw, (JSON.parse(raw.toString()) as { data: unknown[] }).data);
};
const items = [
  { id: 1, t: 'a' },
  { id: 2, t: 'b' },
  { id: 3, t: 'c' },
];

describe('itemsFingerprint', () => {
  it('is the same for the same items whatever the cursor, request id or field order around them', () => {
    const a = page({ data: items, next_cursor: 'c1', request_id: 'r1' });
    expect(page({ request_id: 'r22', data: items, next_cursor: 'c11' })).toBe(a);
    expect(page({ data: items, meta: { total: 3 } })).toBe(a);
  });

  it('differs when any item differs, the middle one included, or when the count does', () => {
    const a = page({ data: items });
    expect(page({ data: [items[0], { id: 2, t: 'B' }, items[2]] })).not.toBe(a);
    expect(page({ data: [items[0], items[2]] })).not.toBe(a);
  });

  it('agrees between the bytes of a compact body and the items own text (pretty-printed bodies)', () => {
    expect(page({ data: items }, 2)).toBe(page({ data: items }));
  });

  it('takes the items array, not an earlier value equal to its first item', () => {
    const a = page({ data: [1, 2], next_cursor: 'x' });
    expect(page({ total: 1, ids: 'x', data: [1, 2], next_cursor: 'xy' })).toBe(a);
  });
});

describe('cursorTooLong', () => {
  it('counts UTF-8 bytes against the 64 KiB bound', () => {
    expect(cursorTooLong('a'.repeat(MAX_CURSOR_BYTES))).toBe(false);
    expect(cursorTooLong('a'.repeat(MAX_CURSOR_BYTES + 1))).toBe(true);
    expect(cursorTooLong('é'.repeat(MAX_CURSOR_BYTES / 2 + 1))).toBe(true);
  });
});
