// Ctrl-C while a big value is printed (issue 33, item 4: "exit 130 within 1 s of Ctrl-C in every
// batch"). `api` without --paginate prints a 79 MB body as one JSON value; it was stringified whole,
// a second or more that Ctrl-C could not cut, and then written whole. It is now written in slices of
// ~64 KiB with a turn between them (src/output/json-slices.ts). Each format a big value can take is
// interrupted once its output has begun (or a second after the body was sent, wherever the run then
// is) and must exit 130 within a second, leaving whole lines and no complete value. The bodies are
// 32 MB (16 for an object of bookings, a listing page and its one big item), not 79: the slices do
// not depend on the size (the one-shot writer printed the whole value at any size), and each run
// costs less on a busy machine.
//
// A body that is one big object (the rest of item 4): 79 MB of a million small members (no array near
// its top) was one JSON.parse and one walk for its numbers, then a million keys counted and listed by
// the writer: 3-4 s after the body arrived that Ctrl-C could not cut (5-17 s at load 15). It is now
// parsed a batch of members at a time, its big member objects in turn (src/output/json-pieces.ts), and
// written from the keys the parse kept; interrupted a second after the body was sent (the run is then
// scanning or parsing it). Its output is interrupted part-way on a 32 MB object of the same members:
// the one-shot writer printed the whole value at that size too, and the 79 MB body cost ~6 s of CPU a
// run to parse before its output began.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { interruptWhenBusy, loadBudget } from '../helpers/interrupt';

const MB = 32;
// 4611686018427387904 + i (past 2^53) without BigInt: these bodies are built at every run of the suite.
const big = (i: number) => `4611686018${427387904 + i}`;
const item = (i: number) => `{"uid":"bk_${i}","id":${big(i)},"title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`;

/** Members "a<i>" from `first` on, about `bytes` of them: numbers past 2^53, small bookings, objects of objects. */
function members(first: number, bytes: number): { text: string; next: number } {
  const parts: string[] = [];
  let i = first;
  for (let size = 0; size < bytes; i++) {
    const value =
      i % 3 === 0
        ? big(i)
        : i % 3 === 1
          ? `{"uid":"bk_${i}","title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`
          : `{"x":{"y":${i},"z":"é${i}"}}`;
    parts.push(`"a${i}":${value}`);
    size += parts[parts.length - 1]!.length + 1;
  }
  return { text: parts.join(','), next: i };
}

// The members of the one-object bodies, made once: MB of them (`first`), and the 47 MB that follow
// (`rest`), which with them make the 79 MB ones.
let made: { first: string; rest: string } | undefined;
function memberTexts(): { first: string; rest: string } {
  if (made) return made;
  const first = members(0, MB * 1e6);
  return (made = { first: first.text, rest: members(first.next, 79e6 - first.text.length).text });
}

/**
 * A body of small bookings: a bare array (MB megabytes), an object of them by key or a listing page (half that);
 * or the one big item (MB/2) of a listing page between two small ones; or one object of small members: MB of
 * them (`flat-small`), or 79 MB flat, or 79 MB of objects of objects (`left`, and `right.deep`).
 */
function body(kind: string): Buffer {
  if (kind === 'item') {
    // Half of MB: its output still lasts about a second, and Ctrl-C is sent as it begins.
    const { first } = memberTexts();
    const half = first.slice(0, first.indexOf(',"a', first.length / 2));
    return Buffer.from(`{"data":[${item(-1)},{${half}},${item(-2)}],"next_cursor":null}`);
  }
  if (kind === 'flat-small') return Buffer.from(`{${memberTexts().first}}`);
  if (kind === 'flat') return Buffer.from(`{${memberTexts().first},${memberTexts().rest}}`);
  if (kind === 'nested') return Buffer.from(`{"left":{${memberTexts().first}},"right":{"deep":{${memberTexts().rest}}}}`);
  // The array is read a second after it was sent too, so it must still be printing then: MB. The
  // others are interrupted once their output has begun, which a smaller body reaches sooner.
  const bytes = kind === 'array' ? MB * 1e6 : (MB / 2) * 1e6;
  const parts: string[] = [];
  for (let size = 0, i = 0; size < bytes; i++) {
    parts.push(kind === 'object' ? `"k${i}":${item(i)}` : item(i));
    size += parts[i]!.length + 1;
  }
  const inner = parts.join(',');
  return Buffer.from(kind === 'object' ? `{${inner}}` : kind === 'array' ? `[${inner}]` : `{"data":[${inner}],"next_cursor":null}`);
}

describe(`Ctrl-C while a big value (${MB} MB; one object of 79 MB) is read or printed: exit 130 within a second`, () => {
  let api: { url: string; close(): Promise<void> };
  // One body at a time is held; `sentAt` is when the last one was sent whole.
  let held: { kind: string; bytes: Buffer } | undefined;
  let sentAt = 0;

  beforeAll(async () => {
    api = await serve((req, res) => {
      const kind = new URL(req.url!, 'http://x').pathname.slice(1);
      if (held?.kind !== kind) held = { kind, bytes: body(kind) };
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': held.bytes.length }).end(held.bytes, () => {
        sentAt = performance.now();
      });
    });
  }, 60_000);
  afterAll(async () => {
    held = made = undefined;
    await api.close();
  }, 60_000);

  const printing = (o: { stdout: string }) => o.stdout.length > 0;
  const aSecondIn = () => sentAt > 0 && performance.now() - sentAt >= 1_000;
  const intoOutput = (ms: number) => {
    let printedAt = 0;
    return (o: { stdout: string }) => {
      if (printedAt === 0 && o.stdout !== '') printedAt = performance.now();
      return printedAt > 0 && performance.now() - printedAt >= ms;
    };
  };
  const large = ['--max-response-bytes', '128M'];

  it.each([
    ['api: an array, pretty', ['/array'], printing, ']'],
    ['api --json uid,id', ['/array', '--json', 'uid,id'], printing, ']'],
    ['api: an array, a second after the body was sent', ['/array'], aSecondIn, ']'],
    ['api: an object of many small values, pretty', ['/object'], printing, '}'],
    ['api --paginate -o tsv', ['/page', '--paginate', '-o', 'tsv'], printing, undefined],
    ['api --paginate -o csv', ['/page', '--paginate', '-o', 'csv'], printing, undefined],
    ['api --paginate -o table', ['/page', '--paginate', '-o', 'table'], printing, undefined],
    ['api: 79 MB, one object of a million small members, a second after it was sent', ['/flat', ...large], aSecondIn, '}'],
    [`api: one object of ${MB} MB of small members, part-way through its output`, ['/flat-small'], intoOutput(300), '}'],
    ['api: 79 MB, objects of objects of small members, a second after they were sent', ['/nested', ...large], aSecondIn, '}'],
    ['api --paginate -o ndjson: one big item', ['/item', '--paginate', '-o', 'ndjson'], printing, undefined],
    ['api --paginate -o json: one big item', ['/item', '--paginate', '-o', 'json'], printing, ']'],
  ] as const)(
    '%s',
    async (_, args, busy, close) => {
      sentAt = 0;
      const r = await interruptWhenBusy(['api', ...args], {
        env: { BOOKING_BASE_URL: api.url, BOOKING_API_KEY: 'sk_test_bigvalue_0123456789' },
        busy,
        limitMs: 20_000,
      });
      expect(r.code, r.stderr).toBe(130);
      expect(r.afterSigint).toBeLessThan(loadBudget(1_000));
      expect(r.stderr).toContain('interrupted');
      // Whole lines only, and never the whole value: a pretty value is left unclosed.
      if (r.stdout !== '') expect(r.stdout.endsWith('\n')).toBe(true);
      if (close) expect(r.stdout.endsWith(`\n${close}\n`)).toBe(false);
      expect(r.stdout).not.toContain('"bk_-2"');
    },
    90_000,
  );
});
