// Ctrl-C while a big value is printed (issue 33, item 4: "exit 130 within 1 s of Ctrl-C in every
// batch"). `api` without --paginate prints a 79 MB body as one JSON value; it was stringified whole,
// a second or more that Ctrl-C could not cut, and then written whole. It is now written in slices of
// ~64 KiB with a turn between them (src/output/json-slices.ts). Each format a big value can take is
// interrupted once its output has begun (or a second after the body was sent, wherever the run then
// is) and must exit 130 within a second, leaving whole lines and no complete value. The bodies are
// 32 MB, not 79: the slices do not depend on the size (the one-shot writer printed the whole value at
// any size), and each run costs less on a busy machine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { interruptWhenBusy, loadBudget } from '../helpers/interrupt';

const MB = 32;
const item = (i: number) =>
  `{"uid":"bk_${i}","id":${4611686018427387904n + BigInt(i)},"title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`;

/** A body of MB megabytes of small bookings: a bare array, an object of them by key, or a listing page. */
function body(kind: string): Buffer {
  const parts: string[] = [];
  for (let size = 0, i = 0; size < MB * 1e6; i++) {
    parts.push(kind === 'object' ? `"k${i}":${item(i)}` : item(i));
    size += parts[i]!.length + 1;
  }
  const inner = parts.join(',');
  return Buffer.from(kind === 'object' ? `{${inner}}` : kind === 'array' ? `[${inner}]` : `{"data":[${inner}],"next_cursor":null}`);
}

describe(`Ctrl-C while a ${MB} MB value is printed: exit 130 within a second`, () => {
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
  afterAll(() => api.close(), 60_000);

  const printing = (o: { stdout: string }) => o.stdout.length > 0;
  const aSecondIn = () => sentAt > 0 && performance.now() - sentAt >= 1_000;

  it.each([
    ['api: an array, pretty', ['/array'], printing, ']'],
    ['api: an object of many small values, pretty', ['/object'], printing, '}'],
    ['api --json uid,id', ['/array', '--json', 'uid,id'], printing, ']'],
    ['api: an array, a second after the body was sent', ['/array'], aSecondIn, ']'],
    ['api --paginate -o tsv', ['/page', '--paginate', '-o', 'tsv'], printing, undefined],
    ['api --paginate -o csv', ['/page', '--paginate', '-o', 'csv'], printing, undefined],
    ['api --paginate -o table', ['/page', '--paginate', '-o', 'table'], printing, undefined],
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
    },
    90_000,
  );
});
