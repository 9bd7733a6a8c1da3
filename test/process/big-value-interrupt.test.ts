// Ctrl-C while a big value is printed (issue 33, item 4: "exit 130 within 1 s of Ctrl-C in every
// batch"). `api` without --paginate prints a 79 MB body as one JSON value; it was stringified whole,
// a second or more that Ctrl-C could not cut, and then written whole. It is now written in slices of
// ~64 KiB with a turn between them (src/output/json-slices.ts). Each format a big value can take is
// interrupted once its output has begun and must exit 130 within a second, leaving whole lines and no
// complete value. These bodies are 5 MB (MB; 6 MB, and 16-32 MB, before): the one-shot writer printed
// the whole value at any size (with it the `close` check fails, and the big item's next item is
// printed: checked at 5 MB with SLICE huge in json-slices.ts, the same six rows failing as at 6), and a
// run cannot get far past its first output before SIGINT reaches it, as it waits on the pipe the test
// reads (the 6 MB object's output lasted 0.3-0.5 s; it is cut 0.1 s in). 5 MB is over the 4 MiB
// (4.19 MB) from which a body is scanned and parsed in pieces (src/http/response.ts); the big item's
// page is over the 8 MiB up to which ndjson copies an item's bytes in one piece
// (src/base/json-scan.ts). Each run costs ~0.1 s of CPU a MB, before its output. The array is also
// interrupted as its body arrives (reading it); the parse of a big page in turns is held by
// test/process/batch-interrupt.test.ts's 63 MiB page.
//
// A body that is one big object (the rest of item 4): 79 MB of a million small members (no array near
// its top) was one JSON.parse and one walk for its numbers, then a million keys counted and listed by
// the writer: 3-4 s after the body arrived that Ctrl-C could not cut (5-17 s at load 15). It is now
// parsed a batch of members at a time, its big member objects in turn (src/output/json-pieces.ts), and
// written from the keys the parse kept; interrupted a second after the body was sent (stretched by the
// load), while it is parsed. These bodies are 48 MB (64 MB before), made of one text of 24 MB of members
// (MEMBERS_MB): flat, those members and the same again under other names; nested, those members in
// `left` and again in `right.deep`. With objects parsed in one piece again (json-pieces' top object to
// parseMarked) these runs ended, at 48 MB, 5.4-6.1 s (flat) and 3.8-4.1 s (nested) after SIGINT at load
// 5-8 (bound 2.5-2.9 s; at 64 MB 5.6-6.7 and 5.0-5.4 s); at load 10 (the bound at its 4 s cap) both
// sizes can miss it. The nested one, its big members each parsed in one piece (bigMember off), ended
// 4.3 s after once at 64 MB, but within the bound in two runs at 64 MB and two at 48 (load 4-5): that
// regression is not reliably caught at either size. Its output is interrupted part-way on a 5 MB object
// of the same members.
//
// The tabular writers (tsv, csv, table) failed on none of the regressions above (they hold behaviour:
// exit 130, whole lines): tsv reads the 5 MB page (parsed in pieces), csv and table a 2 MB one
// (ROWS_MB, parsed whole), whose output still outlasts the pipe by far (a run is cut once its output
// begins, as it waits on the pipe the test reads).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { interruptWhenBusy, loadBudget } from '../helpers/interrupt';

const MB = 5;
// The page of the csv and table runs (header).
const ROWS_MB = 2;
// A listing page of up to 8 MiB has its items' bytes recorded, and ndjson copies an item from them in
// one piece: the big item is 9 MB, so that its page is one whose big items are written in slices.
const ITEM_MB = 9;
// The bodies of one object read a second after they were sent are twice MEMBERS_MB (header).
const MEMBERS_MB = 24;
// 4611686018427387904 + i (past 2^53) without BigInt: these bodies are built at every run of the suite.
const big = (i: number) => `4611686018${427387904 + i}`;
const item = (i: number) => `{"uid":"bk_${i}","id":${big(i)},"title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`;

/** Members "a<i>" from 0 on, about `bytes` of them: numbers past 2^53, small bookings, objects of objects. */
function members(bytes: number): string {
  const parts: string[] = [];
  for (let size = 0, i = 0; size < bytes; i++) {
    const value =
      i % 3 === 0
        ? big(i)
        : i % 3 === 1
          ? `{"uid":"bk_${i}","title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`
          : `{"x":{"y":${i},"z":"é${i}"}}`;
    parts.push(`"a${i}":${value}`);
    size += parts[i]!.length + 1;
  }
  return parts.join(',');
}

/** The members of `text` up to about `bytes`. */
const cut = (text: string, bytes: number) => text.slice(0, text.indexOf(',"a', bytes));

// The members of the bodies of one object, made once: MEMBERS_MB of them, and their first MB and ITEM_MB.
let made: { whole: string; small: string; item: string } | undefined;
function memberTexts(): { whole: string; small: string; item: string } {
  if (made) return made;
  const whole = members(MEMBERS_MB * 1e6);
  return (made = { whole, small: cut(whole, MB * 1e6), item: cut(whole, ITEM_MB * 1e6) });
}

/**
 * A body of MB of small bookings: a bare array, an object of them by key or a listing page (`rows`: a
 * page of ROWS_MB); or the one big item (ITEM_MB) of a listing page between two small ones; or one
 * object of small members: MB of them (`flat-small`), or twice MEMBERS_MB flat (the members again,
 * named "b<i>"), or as objects of objects (`left`, and `right.deep`, MEMBERS_MB each).
 */
function body(kind: string): Buffer {
  if (kind === 'array' || kind === 'object' || kind === 'page' || kind === 'rows') {
    const parts: string[] = [];
    for (let size = 0, i = 0; size < (kind === 'rows' ? ROWS_MB : MB) * 1e6; i++) {
      parts.push(kind === 'object' ? `"k${i}":${item(i)}` : item(i));
      size += parts[i]!.length + 1;
    }
    const inner = parts.join(',');
    return Buffer.from(kind === 'object' ? `{${inner}}` : kind === 'array' ? `[${inner}]` : `{"data":[${inner}],"next_cursor":null}`);
  }
  const { whole, small, item: one } = memberTexts();
  if (kind === 'item') return Buffer.from(`{"data":[${item(-1)},{${one}},${item(-2)}],"next_cursor":null}`);
  if (kind === 'flat-small') return Buffer.from(`{${small}}`);
  // `"a` is found in the members' names only.
  if (kind === 'flat') return Buffer.from(`{${whole},${whole.replaceAll('"a', '"b')}}`);
  return Buffer.from(`{"left":{${whole}},"right":{"deep":{${whole}}}}`);
}

describe(`Ctrl-C while a big value (${MB} MB; one object of ${2 * MEMBERS_MB} MB) is read or printed: exit 130 within a second`, () => {
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
  const sent = () => sentAt > 0;
  // A second after the body was sent, stretched by the load as the bound is: the scan of a 48 MB body,
  // which Ctrl-C can always cut, then lasts a second or more, and a second in would fall within it.
  const aSecondIn = () => sentAt > 0 && performance.now() - sentAt >= loadBudget(1_000);
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
    ['api: an array, as its body arrives', ['/array'], sent, ']'],
    ['api: an object of many small values, pretty', ['/object'], printing, '}'],
    ['api --paginate -o tsv', ['/page', '--paginate', '-o', 'tsv'], printing, undefined],
    [`api --paginate -o csv (${ROWS_MB} MB)`, ['/rows', '--paginate', '-o', 'csv'], printing, undefined],
    [`api --paginate -o table (${ROWS_MB} MB)`, ['/rows', '--paginate', '-o', 'table'], printing, undefined],
    [`api: ${2 * MEMBERS_MB} MB, one object of a million small members, a second after it was sent`, ['/flat', ...large], aSecondIn, '}'],
    [`api: one object of ${MB} MB of small members, part-way through its output`, ['/flat-small'], intoOutput(100), '}'],
    [
      `api: ${2 * MEMBERS_MB} MB, objects of objects of small members, a second after they were sent`,
      ['/nested', ...large],
      aSecondIn,
      '}',
    ],
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
