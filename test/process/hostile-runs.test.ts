// Long runs of one kind of character, from a hostile or just unusual server: every pass over text that
// booking makes on its way out (the key mask in all its forms, URL passwords, control escapes, cell
// widths, csv, the curl quoting) must be linear in them. A regular expression that tries a match at
// every position of a run and scans to its end each time is quadratic: 300 KB of letters through the
// URL-password mask took minutes of CPU, deaf to Ctrl-C, for a plain `booking api`.
// Each run below is 64 KiB, and each CLI run must take under 3.5 s of CPU (its own, read from
// /proc/self/stat's reaped-children times, so the machine's load does not count). Linear passes take
// 0.2-0.8 s; the URL-password mask made quadratic again (its look-behind removed) takes 5.5-25 s at
// 64 KiB. For any n² pass 3.5 s at 64 KiB is the bound the 60 s kill was at 256 KiB (16x the work),
// at half the CPU: 256 KiB runs took 7.6 s for the eleven runs, these 3.6. Without /proc the runs
// are 256 KiB again, the 60 s kill their bound.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { cpuSeconds } from '../helpers/process-state';

const KEY = 'sk_live/Runs+Key0123456789abc';
const PROC = existsSync('/proc/self/stat');
const RUN = (PROC ? 64 : 256) * 1024;
/** CPU a run may take (s): see above. */
const CPU_BOUND = PROC ? 3.5 : Infinity;

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

/** CPU (s) of this process's children that have ended and been reaped. */
const childrenCpu = () => (PROC ? cpuSeconds('self').children : 0);

/** The CLI run, and the CPU it took (the runs are one at a time: nothing else of ours ends meanwhile). */
async function booking(args: string[]) {
  const before = childrenCpu();
  const r = await runCli(args, {
    env: { BOOKING_API_KEY: KEY, BOOKING_BASE_URL: base, BOOKING_CONFIG_DIR: dir, BOOKING_WEBHOOK_SECRET: 'whsec_runs', COLUMNS: '100' },
    timeoutMs: 60_000,
  });
  return { ...r, cpu: childrenCpu() - before };
}

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
    expect(r.cpu, 'CPU seconds').toBeLessThan(CPU_BOUND);
    // A table cuts its cells to the terminal's width; a record wraps them.
    expect(r.stdout).toContain(cut ? 'bk_runs' : 'x'.repeat(1000));
    expect(r.stdout).toContain('user:****@');
  });

  it('webhook send --print-curl quotes a body of runs', { timeout: 70_000 }, async () => {
    const body = join(dir, 'body.json');
    writeFileSync(body, JSON.stringify({ event: 'booking.created', data: item }));
    const r = await booking(['webhook', 'send', 'http://127.0.0.1:9/', '--event', 'booking.created', '--body', body, '--print-curl']);
    expect(r.code, r.stderr.slice(0, 500)).toBe(0);
    expect(r.cpu, 'CPU seconds').toBeLessThan(CPU_BOUND);
    expect(r.stdout).toMatch(/^printf '/);
    expect(r.stdout).toContain('x'.repeat(1000));
  });
});
