// A fault that outlasts --retries part-way through a listing: the documented exit code (1; 5 for
// 429), only whole lines on stdout (with --json, an array left unclosed), a stderr naming the cursor to resume
// from, and a resumed run that completes the list with nothing lost or repeated.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uidsUpTo, type Fault, type FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import {
  envFor,
  expectNoLeaks,
  expectNoStack,
  expectWholeNdjson,
  expectWholeTsv,
  resumeCursor,
  runHere,
  show,
  startServer,
} from '../helpers/hardening-kit';

const COUNT = 200;
const PAGE = 20;
const FAIL_PAGE = 4; // items 0..79 arrive before the fault
const ALL = uidsUpTo(COUNT);

const cases: { name: string; fault: Fault; code: number; retries: number; says: RegExp }[] = [
  {
    name: '429 with Retry-After: 0',
    fault: { kind: 'status', status: 429, retryAfter: '0' },
    code: 5,
    retries: 2,
    says: /429 Too Many Requests.*after 2 retries/,
  },
  { name: '502', fault: { kind: 'status', status: 502, retryAfter: '0' }, code: 1, retries: 2, says: /502 Bad Gateway.*after 2 retries/ },
  {
    name: '503',
    fault: { kind: 'status', status: 503, retryAfter: '0' },
    code: 1,
    retries: 3,
    says: /503 Service Unavailable.*after 3 retries/,
  },
  { name: '504', fault: { kind: 'status', status: 504, retryAfter: '0' }, code: 1, retries: 1, says: /504 Gateway Timeout.*after 1 retry/ },
  { name: 'a reset mid-body', fault: { kind: 'reset' }, code: 1, retries: 1, says: /connection .*lost|other side closed|reset/i },
];

describe('a fault that outlasts the retries, at page 5 of 10', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => envFor(server.url, cfg.dir);
  const failing = (fault: Fault) => (r: { route: string; page: number }) =>
    r.route === 'list' && r.page === FAIL_PAGE ? fault : undefined;
  beforeEach(async () => {
    server = await startServer({ count: COUNT, pageSize: PAGE });
  });
  afterEach(() => server.close());
  afterAll(() => {
    cfg.cleanup();
    expectNoLeaks('persistent-faults');
  });

  describe.each(cases)('$name', ({ fault, code, retries, says }) => {
    it(`ndjson: exit ${code} after ${retries} ${retries === 1 ? 'retry' : 'retries'}, whole lines, resumable`, async () => {
      server.setFaults(failing(fault));
      const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--retries', String(retries)], { env: env() });
      expect(r.code, show(r)).toBe(code);
      expect(r.stderr).toMatch(says);
      expectNoStack(r.stderr);
      expect(server.requests.filter((q) => q.page === FAIL_PAGE)).toHaveLength(retries + 1);
      const first = expectWholeNdjson(r.stdout).map((b) => b.uid);
      expect(first).toEqual(uidsUpTo(FAIL_PAGE * PAGE));

      const cursor = resumeCursor(r.stderr);
      expect(cursor).toBe(server.cursorOf(FAIL_PAGE));
      server.setFaults(undefined);
      const rest = await runHere(['bookings', 'list', '-o', 'ndjson', '--cursor', cursor], { env: env() });
      expect(rest.code, show(rest)).toBe(0);
      expect([...first, ...expectWholeNdjson(rest.stdout).map((b) => b.uid)]).toEqual(ALL);
    });
  });

  it('tsv: every line has all its columns, and the resumed run completes it', async () => {
    server.setFaults(failing({ kind: 'status', status: 503, retryAfter: '0' }));
    const r = await runHere(['bookings', 'list', '--fields', 'uid,title,start,attendee.name', '--retries', '1'], { env: env() });
    expect(r.code, show(r)).toBe(1);
    const first = expectWholeTsv(r.stdout, 4).map((row) => row[0]);
    expect(first).toEqual(uidsUpTo(80));
    server.setFaults(undefined);
    const rest = await runHere(['bookings', 'list', '--fields', 'uid,title,start,attendee.name', '--cursor', resumeCursor(r.stderr)], {
      env: env(),
    });
    expect([...first, ...expectWholeTsv(rest.stdout, 4).map((row) => row[0])]).toEqual(ALL);
  });

  it('--json: the items so far as an unclosed array (never valid JSON), the cursor on stderr', async () => {
    server.setFaults(failing({ kind: 'status', status: 429, retryAfter: '0' }));
    const r = await runHere(['bookings', 'list', '--json', '--retries', '1'], { env: env() });
    expect(r.code, show(r)).toBe(5);
    expect(r.stdout.startsWith('[\n') && r.stdout.endsWith('\n')).toBe(true);
    expect(() => JSON.parse(r.stdout)).toThrow();
    expect(resumeCursor(r.stderr)).toBe(server.cursorOf(FAIL_PAGE));
  });

  it('--json: every item before the fault is in the unclosed array, so the resume cursor loses none', async () => {
    server.setFaults(failing({ kind: 'status', status: 503 }));
    const r = await runHere(['bookings', 'list', '--json', '--retries', '0'], { env: env() });
    expect(r.code, show(r)).toBe(1);
    const uids = [...r.stdout.matchAll(/"uid": "([^"]+)"/g)].map((m) => m[1]);
    expect(uids).toEqual(uidsUpTo(80));
    expect(r.stdout.endsWith('  }\n')).toBe(true);
    expect(resumeCursor(r.stderr)).toBe(server.cursorOf(FAIL_PAGE));
  });

  it('--retries 0 fails on the first 503, without retrying', async () => {
    server.setFaults(failing({ kind: 'status', status: 503 }));
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--retries', '0'], { env: env() });
    expect(r.code, show(r)).toBe(1);
    expect(server.requests.filter((q) => q.page === FAIL_PAGE)).toHaveLength(1);
    expect(expectWholeNdjson(r.stdout)).toHaveLength(80);
  });

  it('a line without any option word (no global option built) retries 3 times, the default', async () => {
    server.setFaults(failing({ kind: 'status', status: 503, retryAfter: '0' }));
    const r = await runHere(['bookings', 'list'], { env: env() });
    expect(r.code, show(r)).toBe(1);
    expect(r.stderr).toMatch(/503 Service Unavailable.*after 3 retries/);
    expect(server.requests.filter((q) => q.page === FAIL_PAGE)).toHaveLength(4);
  });

  it('a Retry-After beyond what the client will sleep ends at once with exit 5 and says how long', async () => {
    server.setFaults(failing({ kind: 'status', status: 429, retryAfter: '3600' }));
    const started = Date.now();
    const r = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r.code, show(r)).toBe(5);
    expect(r.stderr).toContain('the server asks to wait 3600s (booking waits at most 60s); try again after that.');
    expect(r.stderr).not.toContain('--retries');
    expect(resumeCursor(r.stderr)).toBe(server.cursorOf(FAIL_PAGE));
  });

  it('a persistent error on a single resource: exit 1 (5 for 429) and one message', async () => {
    server.setFaults((r) => (r.route === 'get' ? { kind: 'status', status: 502, retryAfter: '0' } : undefined));
    const get = await runHere(['bookings', 'get', 'bk_0001', '--retries', '2'], { env: env() });
    expect(get.code, show(get)).toBe(1);
    expect(get.stdout).toBe('');
    expect(get.stderr).toMatch(/^error: GET \/api\/v1\/bookings\/bk_0001: 502 Bad Gateway: injected 502 \(after 2 retries\)\n$/);
    server.setFaults((r) => (r.route === 'me' ? { kind: 'status', status: 429, retryAfter: '0' } : undefined));
    const me = await runHere(['whoami', '--retries', '1'], { env: env() });
    expect(me.code, show(me)).toBe(5);
    expect(me.stdout).toBe('');
  });
});
