// Long runs of one kind of character, from a hostile or just unusual server: every pass over text that
// booking makes on its way out (the key mask in all its forms, URL passwords, control escapes, cell
// widths, csv, the curl quoting) must be linear in them. A regular expression that tries a match at
// every position of a run and scans to its end each time is quadratic: 300 KB of letters through the
// URL-password mask took minutes of CPU, deaf to Ctrl-C, for a plain `booking api`.
// Each run below is 256 KiB; linear passes take milliseconds, a quadratic one far past the limit.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

const KEY = 'sk_live/Runs+Key0123456789abc';
const RUN = 256 * 1024;

// What the passes look for, and the characters their patterns repeat over.
const UNITS: Record<string, string> = {
  letters: 'x',
  digits: '7',
  base64: 'Ab9+/',
  base64url: 'Ab9_-',
  hex: 'a3F9',
  percent: '%41',
  scheme: 'a.b-c+',
  colons: 'a:',
  slashes: 'a//b',
  at: 'a@b:',
  url: 'a://b:c',
  spaces: ' \t',
  keyPrefix: KEY.slice(0, 11),
  wide: '漢',
};

const runs = Object.fromEntries(Object.entries(UNITS).map(([name, unit]) => [name, unit.repeat(Math.ceil(RUN / unit.length))]));
const item = { uid: 'bk_runs', title: `see http://user:pw@host/ ${runs.letters}`, status: 'accepted', ...runs };

let server: Server;
let base: string;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'booking-runs-'));
  server = createServer((req, res) => {
    const one = /^\/api\/v1\/bookings\/[^/?]+/.test(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(one ? { data: item } : { data: [item] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

const booking = (args: string[]) =>
  runCli(args, {
    env: { BOOKING_API_KEY: KEY, BOOKING_BASE_URL: base, BOOKING_CONFIG_DIR: dir, BOOKING_WEBHOOK_SECRET: 'whsec_runs', COLUMNS: '100' },
    timeoutMs: 60_000,
  });

describe('long runs of one character class pass through every output in linear time', () => {
  it.each([
    ['bookings list -o json', ['bookings', 'list', '-o', 'json']],
    ['bookings list -o ndjson', ['bookings', 'list', '-o', 'ndjson']],
    ['bookings list -o tsv', ['bookings', 'list', '-o', 'tsv']],
    ['bookings list -o csv', ['bookings', 'list', '-o', 'csv']],
    ['bookings list -o table', ['bookings', 'list', '-o', 'table', '--no-pager'], 'cut'],
    ['bookings get -o json', ['bookings', 'get', 'bk_runs', '-o', 'json']],
    ['bookings get (a record)', ['bookings', 'get', 'bk_runs', '-o', 'table', '--no-pager'], 'cut'],
    ['api', ['api', '/api/v1/bookings']],
    ['api --paginate -o ndjson', ['api', '/api/v1/bookings', '--paginate', '-o', 'ndjson']],
    ['bookings list --jq', ['bookings', 'list', '--jq', '.[0].title']],
  ])('%s', { timeout: 70_000 }, async (_, args, cut?: string) => {
    const r = await booking(args as string[]);
    expect(r.signal, r.stderr.slice(0, 500)).toBeNull();
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    // A table cuts its cells to the terminal's width; a record wraps them.
    expect(r.stdout).toContain(cut ? 'bk_runs' : 'x'.repeat(1000));
    expect(r.stdout).toContain('user:****@');
  });

  it('webhook send --print-curl quotes a body of runs', { timeout: 70_000 }, async () => {
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify({ event: 'booking.created', data: item }));
    const r = await booking(['webhook', 'send', 'http://127.0.0.1:9/', '--event', 'booking.created', '--body', body, '--print-curl']);
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(r.stdout).toMatch(/^printf '/);
    expect(r.stdout).toContain('x'.repeat(1000));
  });
});
