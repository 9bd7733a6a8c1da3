// Hostile paging servers against the real CLI (in-process main, a loopback server), from issue 23's
// adversarial run: a server that ignores the cursor and repeats its items under an ever longer cursor,
// one that sends 8 MiB cursors, one that sends empty pages forever. Each ends with exit 1 and one line
// that says why, after the items so far, never a loop or memory that grows with what the server sends.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { startFakeService, type FakeService, type Reply } from '../../src/sandbox/core';

const KEY = 'sk_test_bounds_0123456789';
let configDir = '';
let service: FakeService;
const served = new Map<string, number>();

const json = (body: unknown): Reply => ({ status: 200, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

/** Per path: what a hostile server answers to its nth request. */
const HOSTILE: Record<string, (n: number, url: URL) => Reply> = {
  // Ignores the cursor: the same items, a cursor one character longer and a fresh request id each time.
  '/longer': (n) => json({ request_id: `req_${n}`, data: [{ id: 'a' }, { id: 'b' }], next_cursor: `c${'1'.repeat(n)}` }),
  // Page 1, then an 8 MiB cursor to page 2.
  '/huge': (n) => json({ data: [{ id: `i${n}` }], next_cursor: n === 1 ? 'z'.repeat(8 * 1024 * 1024) : null }),
  // Empty pages forever, each with a fresh cursor.
  '/empty': (n) => json({ data: n === 1 ? [{ id: 'first' }] : [], response_metadata: { next_cursor: `e${n}` } }),
};

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'booking-bounds-'));
  service = await startFakeService({
    apiKey: KEY,
    answer: ({ url }) => {
      const path = url.pathname.replace(/\/api\/v1\/.*$/, '').replace(/\/v1\/.*$/, '');
      const n = (served.get(path) ?? 0) + 1;
      served.set(path, n);
      const hostile = HOSTILE[path];
      return hostile ? hostile(n, url) : { status: 404, body: '{"message":"no such server"}' };
    },
  });
});

afterAll(async () => {
  await service.close();
  rmSync(configDir, { recursive: true, force: true });
});

async function run(path: string, args: string[]): Promise<{ code: number; out: string; err: string; requests: number }> {
  served.delete(path);
  const io = testIO();
  const code = await main(['--base-url', `${service.url}${path}`, ...args], {
    io,
    env: { BOOKING_API_KEY: KEY, BOOKING_CONFIG_DIR: configDir },
  });
  return { code, out: io.out(), err: io.err(), requests: served.get(path) ?? 0 };
}

const ids = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

describe.each([
  ['bookings list', ['bookings', 'list', '-o', 'ndjson']],
  ['api --paginate', ['api', '/v1/things', '--paginate', '-o', 'ndjson']],
])('%s', (_name, args) => {
  it('the same items under a cursor one character longer each time: page 1 once, then exit 1', async () => {
    const r = await run('/longer', args);
    expect({ code: r.code, ids: ids(r.out), requests: r.requests }).toEqual({ code: 1, ids: ['a', 'b'], requests: 2 });
    expect(r.err).toMatch(
      /^error: GET \S+\?cursor=c1: the server sent a page it had already sent \(next cursor c1\); stopping instead of looping\.\n/,
    );
  });

  it('an 8 MiB cursor is refused, naming the bound, after the items so far', async () => {
    const r = await run('/huge', args);
    expect({ code: r.code, ids: ids(r.out), requests: r.requests }).toEqual({ code: 1, ids: ['i1'], requests: 1 });
    expect(r.err).toBe(
      `error: GET ${args[0] === 'api' ? '/huge/v1/things' : '/huge/api/v1/bookings'}: the next cursor is 8,192 KiB, over the 64 KiB a cursor may be; stopped after 1 item.\n`,
    );
  });

  it('empty pages forever: 100 in a row are followed, then exit 1 naming the cursor to resume from', async () => {
    const r = await run('/empty', args);
    expect({ code: r.code, ids: ids(r.out), requests: r.requests }).toEqual({ code: 1, ids: ['first'], requests: 101 });
    expect(r.err).toMatch(/^error: GET \S+\?cursor=e100: 100 empty pages in a row, each naming a next page; stopped after 1 item\.\n/);
    expect(r.err).toContain('resume with: --cursor e101\n');
  });
});
