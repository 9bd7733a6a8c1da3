// The everyday output path in-process (main() against a loopback server): a single page of 150,000
// items in every format, bounded input (a body larger than --max-response-bytes, a document nested
// deeper than 1,000), and the quick scan that picks JSON.parse or lossless-json.
// 150,000 is the count that fails: a writer that spreads a page into a call (`items.push(...page)`,
// `Math.max(...rows.map(width))`, as the table and json writers once did) overflows the stack past
// ~125,500 arguments (node 20 and 24). The count, not the items' size, is what matters, so the items
// are `{"uid":"bk_N"}` only (a 2.9 MB page; the six-field bookings' 22 MB page took 11.7 s of CPU for
// the six runs, this one 2-3 s); the many-page table below keeps whole bookings. Under 4 MiB the page
// is one JSON.parse, as everyday pages are (the piecewise parse of big bodies: json-pieces.test.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { makeResponse } from '../../src/http/response';
import { scanJson } from '../../src/base/json-scan';
import { startOutputServer, type OutputServer } from '../helpers/output-server';

let server: OutputServer;
let dir: string;
beforeAll(async () => {
  server = await startOutputServer({ kind: 'pages', total: 150_000, pageSize: 150_000, uidsOnly: true });
  dir = mkdtempSync(join(tmpdir(), 'booking-output-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[], opts: { tty?: boolean } = {}) {
  const io = testIO({ tty: opts.tty ?? false, columns: 120 });
  const env = { BOOKING_CONFIG_DIR: dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: 'sk_test_output', BOOKING_PAGER: '' };
  // main() reads BOOKING_* from the env it is given, never from process.env.
  const code = await main(args, { io, env });
  return { code, out: io.out(), err: io.err() };
}

describe('a single page of 150,000 items', () => {
  it.each([['table'], ['tsv'], ['csv'], ['ndjson'], ['json']])(
    'bookings list -o %s: every item, exit 0',
    async (format) => {
      server.mode = { kind: 'pages', total: 150_000, pageSize: 150_000, uidsOnly: true };
      const r = await run(['bookings', 'list', '-o', format]);
      expect(r.code, r.err).toBe(0);
      if (format === 'json') {
        const items = JSON.parse(r.out) as { uid: string }[];
        expect(items).toHaveLength(150_000);
        expect(items[149_999]!.uid).toBe('bk_149999');
      } else {
        const lines = r.out.trimEnd().split('\n');
        expect(lines).toHaveLength(150_000 + (format === 'table' || format === 'csv' ? 1 : 0));
        expect(lines.at(-1)).toContain('bk_149999');
      }
    },
    60_000,
  );

  it('api --paginate: every item', async () => {
    server.mode = { kind: 'pages', total: 150_000, pageSize: 150_000, uidsOnly: true };
    const r = await run(['api', '/api/v1/bookings', '--paginate', '-o', 'ndjson']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.trimEnd().split('\n')).toHaveLength(150_000);
  }, 60_000);

  it('a table of many pages keeps the widths of the first page: later text cut to fit, ids whole', async () => {
    server.mode = { kind: 'pages', total: 3_000, pageSize: 100 };
    const r = await run(['bookings', 'list', '-o', 'table']);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trimEnd().split('\n');
    expect(lines).toHaveLength(3_001);
    // "Call 99" set the width of TITLE on the first page; "Call 2999" is cut to it.
    expect(lines[100]).toMatch(/^bk_99\s+Call 99\s+cancelled/);
    expect(lines.at(-1)).toMatch(/^bk_2999\s+Call 2…\s+confirmed/);
  }, 60_000);
});

describe('bounded input', () => {
  it('a body larger than --max-response-bytes: one error line naming the request, exit 1', async () => {
    server.mode = { kind: 'endless-body' };
    const r = await run(['bookings', 'list', '--max-response-bytes', '1MiB']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/^error: GET \/api\/v1\/bookings: the response is larger than --max-response-bytes \(1 MiB\); not read\.\n/);
  }, 30_000);

  it('bookings watch and changes read a page up to --max-page, the lower of it and --max-response-bytes naming itself', async () => {
    server.mode = { kind: 'endless-body' };
    for (const [args, bound] of [
      [['bookings', 'watch', '--once', '--max-page', '1MiB'], '--max-page (1 MiB)'],
      [['bookings', 'changes', '--since', '1h', '--max-page', '2MiB', '--max-response-bytes', '1MiB'], '--max-response-bytes (1 MiB)'],
      [['bookings', 'changes', '--since', '1h', '--max-page', '1MiB'], '--max-page (1 MiB)'],
    ] as const) {
      const r = await run([...args]);
      expect(r.code, r.err).toBe(1);
      expect(r.out).toBe('');
      expect(r.err).toContain(`error: GET /api/v1/bookings: the response is larger than ${bound}; not read.\n`);
    }
  }, 30_000);

  it('a bad --max-response-bytes is a usage error', async () => {
    const r = await run(['bookings', 'list', '--max-response-bytes', 'lots']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--max-response-bytes');
  });

  it('a document nested deeper than 1,000 levels: one error line naming the request, exit 1', async () => {
    server.mode = { kind: 'deep', depth: 5_000 };
    for (const args of [
      ['bookings', 'list'],
      ['api', '/api/v1/deep'],
    ]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/^error: GET \/api\/v1\/(bookings|deep)\S*: the response nests deeper than 1000 levels; not read\.\n$/);
    }
  });

  it('1,000 levels are read and printed', async () => {
    server.mode = { kind: 'deep', depth: 1_000 };
    const r = await run(['api', '/api/v1/deep', '-o', 'json']);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split('[').length - 1).toBe(1_000);
  });
});

describe('parsing: JSON.parse, with the numbers it would change marked', () => {
  const scan = (text: string) => scanJson(Buffer.from(text));
  const found = (text: string) => {
    const { numbers } = scan(text);
    return numbers.flatMap((_, i) => (i % 2 ? [] : [text.slice(numbers[i], numbers[i + 1])]));
  };
  it('finds the numbers JSON.parse would change, and only those', () => {
    expect(found('{"id":123456789012345,"n":-42,"ok":true,"f":false,"x":null,"s":"12345678901234567890"}')).toEqual([]);
    expect(found('{"p":1.5,"e":2.25,"neg":-0.5,"big":100000000000000000000,"tiny":1.5e-7}')).toEqual([]);
    for (const n of ['12345678901234567890', '1.50', '1e3', '-0', '1e400', '0.10000000000000000001'])
      expect(found(`[${n}]`), n).toEqual([n]);
    expect(found('{"s":"a \\" 12345678901234567890 \\\\","n":1}')).toEqual([]);
    // Not JSON numbers, or a number where a key belongs: left for JSON.parse to report.
    for (const bad of ['[01]', '[1.2.3]', '[-]', '{12345678901234567890:1}']) expect(found(bad), bad).toEqual([]);
  });
  it('counts depth outside strings only', () => {
    expect(scan(`{"s":"${'['.repeat(2000)}"}`).tooDeep).toBe(false);
    expect(scan('['.repeat(1001)).tooDeep).toBe(true);
    expect(scan('['.repeat(1000)).tooDeep).toBe(false);
  });
  it('keeps every digit through a response either way', () => {
    const res = (text: string) => makeResponse('GET', new URL('http://127.0.0.1/x'), 200, {}, Buffer.from(text)).json();
    expect(res('{"id":12345678901234567890}')).toMatchObject({ id: { value: '12345678901234567890' } });
    expect(res('{"id":42,"price":2.5}')).toEqual({ id: 42, price: 2.5 });
  });
});
