// Issue 23, the output side: Ctrl-C ends a wide-text table and a long --jq with 130 within a second,
// and --jq refuses what its memory cannot hold with one line and the way out, never "unexpected
// error". The attacks as reported: a 24 KB CJK title took 105 s as a table and ignored Ctrl-C;
// `--jq 'last(range(1e11))'` ignored two SIGINTs and a SIGTERM; an 8 MiB array of small objects
// ended in `Aborted()`.
import { spawn } from 'node:child_process';
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, tempConfigDir } from '../helpers/cli';
import { expectNoStack, runHere } from '../helpers/hardening-kit';
import { until } from '../helpers/until';
import { cpuSeconds } from '../helpers/process-state';

const KEY = 'sk_test_bounded';
const WIDE = '漢字'.repeat(6_000); // 12,000 characters, 24 KB of UTF-8... and 24,000 columns

/** Pages for ever, each of 20 wide-text bookings, so that a table is still printing when Ctrl-C comes. */
function page(n: number): string {
  const data = Array.from({ length: 20 }, (_, i) => ({ uid: `bk_${n}_${i}`, title: `${i} ${WIDE}`, status: 'confirmed' }));
  return JSON.stringify({ data, next_cursor: String(n + 1) });
}

let server: Server;
let base: string;
const requests: string[] = [];
const cfg = tempConfigDir();

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url!);
    const url = new URL(req.url!, 'http://x');
    let body: string;
    if (url.pathname === '/api/v1/bookings') body = page(Number(url.searchParams.get('cursor') ?? 0));
    else if (url.pathname === '/small-objects') body = `[${'{},'.repeat(Number(url.searchParams.get('n')) - 1)}{}]`;
    else if (url.pathname === '/objects') {
      // Pages of 10,000 small objects, for ever.
      const n = Number(url.searchParams.get('cursor') ?? 0);
      body = JSON.stringify({ data: Array.from({ length: 10_000 }, (_, i) => ({ i: n * 10_000 + i })), next_cursor: String(n + 1) });
    } else body = JSON.stringify({ uid: 'bk_1', title: 'Intro call' });
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.close();
  cfg.cleanup();
});

const env = (extra: Record<string, string> = {}) => ({
  BOOKING_CONFIG_DIR: cfg.dir,
  BOOKING_BASE_URL: base,
  BOOKING_API_KEY: KEY,
  ...extra,
});

/** The CLI as a child: signalled once `ready` holds; how long from the signal to its exit. */
async function interrupt(args: string[], ready: (child: { stdout: string; pid: number }) => boolean, sig: NodeJS.Signals = 'SIGINT') {
  const child = spawn(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv(env({ COLUMNS: '80' })),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const seen = { stdout: '', stderr: '', pid: child.pid! };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (seen.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (seen.stderr += c));
  const killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  let exited = false;
  void closed.then(() => (exited = true));
  // The test's own timeout bounds the wait: a second of jq's CPU can take long on a loaded machine.
  await until(() => exited || ready(seen), 'the process to say it is ready', 85_000);
  const signalled = performance.now();
  child.kill(sig);
  const code = await closed;
  clearTimeout(killer);
  return { code, ms: performance.now() - signalled, stdout: seen.stdout, stderr: seen.stderr };
}

// Ctrl-C must end the run within a second; the margin is for a loaded machine. Left alone, the run
// ends at 3 s anyway (bin/booking.js's last resort), so the bound is below that.
const WITHIN_MS = 1_500;

describe('Ctrl-C', () => {
  it('ends a wide-text table with 130 within a second', { timeout: 90_000 }, async () => {
    // Printing: the header and some rows are out, and the list never ends by itself.
    const r = await interrupt(['bookings', 'list', '-o', 'table'], (c) => c.stdout.split('\n').length > 5);
    expect(r.code, r.stderr).toBe(130);
    expect(r.ms).toBeLessThan(WITHIN_MS);
    expect(r.stdout.startsWith('UID')).toBe(true);
    expect(r.stdout.endsWith('\n')).toBe(true); // whole lines only
    for (const line of r.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
  });
  for (const sig of ['SIGINT', 'SIGTERM'] as const) {
    it(`ends a --jq that runs for ever with 130 within a second (${sig})`, { timeout: 90_000 }, async () => {
      // jq is running: the response is in, and the process has used half a second of CPU since (it
      // was a second). Starting jq takes about 0.15 s of it: with the abort not reaching jq's worker
      // (jq-worker.ts, simulated) the run ends at 3 s and fails when signalled at 0.4-0.5 s on node 20
      // and 24 (0.15 s on up on node 20); at 0.15 s one run in two on node 24 came before jq ran.
      let start: number | undefined;
      const r = await interrupt(
        ['api', '/record', '--jq', 'last(range(1e11))'],
        (c) => {
          if (!requests.includes('/record')) return false;
          start ??= cpuSeconds(c.pid).own;
          return cpuSeconds(c.pid).own - start >= 0.5;
        },
        sig,
      );
      requests.length = 0;
      expect(r.code, r.stderr).toBe(130);
      expect(r.ms).toBeLessThan(WITHIN_MS);
      expect(r.stdout).toBe('');
    });
  }
});

describe('--jq memory', () => {
  it('refuses an input past its bound before running, in one line naming the size and the way out', { timeout: 60_000 }, async () => {
    // 700,000 small objects: 2 MiB of JSON, past what jq-wasm's 256 MiB holds (it aborted).
    const r = await runHere(['api', '/small-objects?n=700000', '--jq', 'length'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: the input \(2\.0 MiB of JSON\) is too large for the built-in jq .*-o ndjson \| jq/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).not.toMatch(/unexpected|Aborted/);
    expectNoStack(r.stderr);
  });
  it('takes an input within its bound', { timeout: 60_000 }, async () => {
    const r = await runHere(['api', '/small-objects?n=100000', '--jq', 'length'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('100000\n');
  });
  it('stops paging a list once it is past the bound, rather than holding a million items', { timeout: 120_000 }, async () => {
    requests.length = 0;
    const r = await runHere(['api', '/objects', '--paginate', '--jq', 'length'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/--jq: the list \([\d,]+ items so far, [\d.]+ MiB of JSON\) is too large for the built-in jq/);
    expect(r.stderr).toContain('-o ndjson | jq');
    expect(requests.length).toBeLessThan(60);
  });
  it('says jq ran out of memory when the filter itself outgrows it, never "unexpected error"', { timeout: 120_000 }, async () => {
    // A string doubled until it outgrows the 256 MiB: the same abort as an array of 1e8 numbers, in
    // 0.2 s of jq's CPU rather than 2.6 s.
    const r = await runHere(['api', '/record', '--jq', 'reduce range(40) as $i ("x"; . + .) | length'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: --jq: jq ran out of its 256 MiB of memory running the filter on 0\.0 MiB of JSON: use -o ndjson \| jq/,
    );
    expect(r.stderr).not.toMatch(/unexpected|Aborted/);
  });
});
