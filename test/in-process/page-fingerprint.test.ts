// The fingerprints behind paging's loop checks (src/http/page-fingerprint.ts): a page's items hashed
// from the bytes they occupy in the body, equal whatever else the body carries, and cursors bounded.
import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../src/base/errors';
import { cursorTooLong, itemsFingerprint, MAX_CURSOR_BYTES } from '../../src/http/page-fingerprint';
import { parseJson } from '../../src/output/json';

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
  it('is the same for the same items whatever the cursor, request id or field order around them', async () => {
    const a = await page({ data: items, next_cursor: 'c1', request_id: 'r1' });
    expect(await page({ request_id: 'r22', data: items, next_cursor: 'c11' })).toBe(a);
    expect(await page({ data: items, meta: { total: 3 } })).toBe(a);
  });

  it('differs when any item differs, the middle one included, or when the count does', async () => {
    const a = await page({ data: items });
    expect(await page({ data: [items[0], { id: 2, t: 'B' }, items[2]] })).not.toBe(a);
    expect(await page({ data: [items[0], items[2]] })).not.toBe(a);
  });

  it('agrees between the bytes of a compact body and the items own text (pretty-printed bodies)', async () => {
    expect(await page({ data: items }, 2)).toBe(await page({ data: items }));
  });

  it('takes the items array, not an earlier value equal to its first item', async () => {
    const a = await page({ data: [1, 2], next_cursor: 'x' });
    expect(await page({ total: 1, ids: 'x', data: [1, 2], next_cursor: 'xy' })).toBe(a);
    // A page of one item: not the first array that holds it among others.
    expect(await page({ total: [1, 2], data: [1] })).toBe(await page({ data: [1] }));
  });
});

describe('itemsFingerprint of big items and exact numbers', () => {
  // Bodies as a server writes them, parsed losslessly as paging does.
  const rawPage = (text: string) => itemsFingerprint(Buffer.from(text), (parseJson(text) as { data: unknown[] }).data);
  // Past 1 MiB (compared in slices) and longer than a slice, with surrogate pairs and escapes across their edges.
  const long = `${'é'.repeat(65_535)}😀${'x'.repeat(1_000_000)}\\n\\"\\u0001${'😀'.repeat(40_000)}`;
  const items = `{"id":12345678901234567890,"n":1.50,"s":"${long}"},{"id":-0,"t":"\\u0000x"}`;

  it('is the same for the same items (a 20-digit id, 1.50, -0, strings past 64 Ki characters) under another cursor', async () => {
    const a = await rawPage(`{"data":[${items}],"next":"c1"}`);
    expect(await rawPage(`{"next":"c222","data":[${items}]}`)).toBe(a);
    // The items' own text, for a body that writes them otherwise, agrees with the compact bytes.
    expect(await rawPage(`{"data": [ ${items.replace('"n":1.50', '"n": 1.50')} ] }`)).toBe(a);
  });

  it('agrees between a small body (items compared whole) and one past 1 MiB (compared in slices)', async () => {
    const small = items.replace('x'.repeat(1_000_000), 'x');
    expect(await rawPage(`{"pad":"${' '.repeat(1_100_000)}","data":[${small}]}`)).toBe(await rawPage(`{"data":[${small}]}`));
  });

  it('differs when a digit of the id, the number as written, or a character far into a long string differs', async () => {
    const a = await rawPage(`{"data":[${items}]}`);
    expect(await rawPage(`{"data":[${items.replace('12345678901234567890', '12345678901234567891')}]}`)).not.toBe(a);
    expect(await rawPage(`{"data":[${items.replace('1.50', '1.5')}]}`)).not.toBe(a);
    expect(await rawPage(`{"data":[${items.replace('x'.repeat(1_000_000), `${'x'.repeat(999_999)}y`)}]}`)).not.toBe(a);
  });
});

describe('itemsFingerprint of a page of one big item', () => {
  // 40,000 fields of 40-digit numbers: 2 MB, compared in batches (a hostile page of 16 MB took 1.9 s in one stretch).
  const fields = Array.from({ length: 40_000 }, (_, i) => `"f${i}":${'1234567890'.repeat(4)}`).join(',');
  const text = `{"data":[{${fields}}],"next":"c1"}`;
  const items = (parseJson(text) as { data: unknown[] }).data;

  it('gives the event loop turns while it compares, and is the same page under another cursor', async () => {
    let turns = 0;
    const a = await itemsFingerprint(Buffer.from(text), items, async () => void turns++);
    expect(turns).toBeGreaterThan(50);
    expect(await itemsFingerprint(Buffer.from(`{"next":"c2","data":[{${fields}}]}`), items)).toBe(a);
  });

  it('stops where a turn says Ctrl-C came', async () => {
    let turns = 0;
    const interrupted = async () => {
      if (++turns === 3) throw new InterruptedError();
    };
    await expect(itemsFingerprint(Buffer.from(text), items, interrupted)).rejects.toThrow(InterruptedError);
    expect(turns).toBe(3);
  });
});

describe('cursorTooLong', () => {
  it('counts UTF-8 bytes against the 64 KiB bound', async () => {
    expect(cursorTooLong('a'.repeat(MAX_CURSOR_BYTES))).toBe(false);
    expect(cursorTooLong('a'.repeat(MAX_CURSOR_BYTES + 1))).toBe(true);
    expect(cursorTooLong('é'.repeat(MAX_CURSOR_BYTES / 2 + 1))).toBe(true);
  });
});
