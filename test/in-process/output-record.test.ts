import { describe, expect, it } from 'vitest';
import { writeEscapedText, writeJsonValue, writeRecord } from '../../src/output/index';
import { HOSTILE, items, outputContext, type KitOptions, useTimeZone } from '../helpers/output-kit';

const BOOKING = items(`[{"uid":"bk_1","id":12345678901234567890,"price":1.50,"start":"2026-11-23T08:00:00Z",
  "attendee":{"name":"Ann","email":"ann@example.com"},"tags":[],"note":"\\u001b[31mred\\ta\\nb"}]`)[0];

async function record(opts: KitOptions, value: unknown = BOOKING) {
  const ctx = outputContext(opts);
  await writeRecord(ctx, value);
  return ctx.io;
}

useTimeZone('Asia/Tokyo');

describe('writeRecord', () => {
  it('is key<TAB>value lines in a pipe, flattened, raw and escaped', async () => {
    expect((await record({ tty: false })).out()).toBe(
      [
        'uid\tbk_1',
        'id\t12345678901234567890',
        'price\t1.50',
        'start\t2026-11-23T08:00:00Z',
        'attendee.name\tAnn',
        'attendee.email\tann@example.com',
        'tags\t[]',
        'note\t\\x1b[31mred\\ta\\nb',
        '',
      ].join('\n'),
    );
  });
  it('is a key/value table on a terminal with local times', async () => {
    const out = (await record({ tty: true })).out();
    expect(out).toMatch(/^uid +bk_1\n/);
    expect(out).toMatch(/\nid +12345678901234567890\nprice +1\.50\nstart \(Asia\/Tokyo\) +2026-11-23 17:00\nattendee\.name +Ann\n/);
    expect(out).toContain('\\x1b[31mred\\ta\\nb');
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
  });
  it('bolds keys only with colour', async () => {
    expect((await record({ tty: true, color: true })).out()).toContain('\x1b[1muid\x1b[22m');
  });
  it('wraps long values instead of cutting them', async () => {
    const url = `https://example.com/${'a'.repeat(100)}`;
    const out = (await record({ tty: true, columns: 60 }, { url })).out();
    expect(out.split('\n').every((l) => l.length <= 60)).toBe(true);
    expect(out.replace(/\s+/g, '').replace('url', '')).toBe(url);
  });
  it('a key inside a long value is masked before the value wraps (each line alone would be too short to match)', async () => {
    const key = 'sk_live_0123456789abcdefXYZ';
    for (const value of [`key=${key}`, `https://x.example/?t=${key}&more`, Buffer.from(`u:${key}`).toString('base64')]) {
      // Values wrapped at 10 columns: no line holds the 12 characters the door's mask looks for.
      const ctx = outputContext({ tty: true, columns: 16 });
      ctx.io.maskSecret(key);
      await writeRecord(ctx, { title: value });
      const joined = ctx.io.out().replace(/\s+/g, '');
      expect(joined, value).not.toContain(key.slice(0, 12));
      expect(joined, value).not.toContain(key.slice(-12));
    }
  });
  it('is pretty lossless JSON with -o json and one line with ndjson', async () => {
    const json = (await record({ tty: true, output: 'json', fields: ['id', 'attendee.name'] })).out();
    expect(json).toBe('{\n  "id": 12345678901234567890,\n  "attendee": {\n    "name": "Ann"\n  }\n}\n');
    const nd = (await record({ tty: false, output: 'ndjson', fields: ['price', 'note'] })).out();
    expect(nd).toBe('{"price":1.50,"note":"\\u001b[31mred\\ta\\nb"}\n');
  });
  it('takes --fields in tsv and table, in their order', async () => {
    expect((await record({ tty: false, fields: ['attendee', 'uid'] })).out()).toBe(
      'attendee.name\tAnn\nattendee.email\tann@example.com\nuid\tbk_1\n',
    );
    // A field the record does not have is a usage error naming the ones it has.
    await expect(record({ tty: false, fields: ['uid', 'nope'] })).rejects.toThrow(
      /^no item has the field "nope"; available fields: uid, id,/,
    );
    expect((await record({ tty: true, fields: ['price', 'uid'] })).out()).toMatch(/^price +1\.50\nuid +bk_1\n$/);
  });
  it('prints a bare scalar as itself', async () => {
    expect((await record({ tty: false }, 'o\x1bk')).out()).toBe('o\\x1bk\n');
  });
});

describe('writeJsonValue', () => {
  it('prints the body as sent, pretty and lossless, escaping what JSON leaves raw', () => {
    const ctx = outputContext({ tty: true });
    writeJsonValue(ctx, items(`{"data":[{"n":1.50}],"next":"\u0085${HOSTILE[3]}"}`));
    expect(ctx.io.out()).toBe('{\n  "data": [\n    {\n      "n": 1.50\n    }\n  ],\n  "next": "\\u0085\\u202e"\n}\n');
  });
  it('projects every item of an array body with --fields', () => {
    const ctx = outputContext({ tty: false, fields: ['a'] });
    writeJsonValue(ctx, [{ a: 1, b: 2 }, { a: 3 }]);
    expect(JSON.parse(ctx.io.out())).toEqual([{ a: 1 }, { a: 3 }]);
  });
});

describe('writeEscapedText', () => {
  it('keeps lines and tabs, escapes the rest, ends with a newline', () => {
    const ctx = outputContext({ tty: true });
    writeEscapedText(ctx, 'a\tb\nc\x1b]0;t\x07\r');
    expect(ctx.io.out()).toBe('a\tb\nc\\x1b]0;t\\x07\\r\n');
  });
});
