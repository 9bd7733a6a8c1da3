// Answers that are not faults of the network but of the server: a stall past --timeout, a cursor that
// leads back where it came from, bodies that are not JSON or stop half-way. Each ends with exit 1 and
// a message of one line (plus the resume hint when a listing was under way), never a stack.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { uidsUpTo, type Fault, type FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import {
  envFor,
  expectNoLeaks,
  expectNoStack,
  expectWholeNdjson,
  resumeCursor,
  run,
  runHere,
  show,
  startServer,
} from '../helpers/hardening-kit';

const lines = (text: string) => text.split('\n').filter((l) => l !== '');

describe('bad responses', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => envFor(server.url, cfg.dir);
  const onPage = (page: number, fault: Fault) => (r: { route: string; page: number }) =>
    r.route === 'list' && r.page === page ? fault : undefined;
  beforeEach(async () => {
    server = await startServer({ count: 100, pageSize: 20 });
  });
  afterEach(() => server.close());
  afterAll(() => {
    cfg.cleanup();
    expectNoLeaks('bad-responses');
  });

  describe('--timeout', () => {
    it.each([
      ['no response at all', { kind: 'stall' } as Fault],
      ['headers, then a body that never ends', { kind: 'stall-body' } as Fault],
    ])('%s: fails in about --timeout, exit 1', async (_what, fault) => {
      server.setFaults(onPage(0, fault));
      // A process of its own: in this one, the CLI's timers share the test's event loop, whose clock
      // is read once per turn, so a long turn under load made the timeout look early (529 ms of 600).
      const started = Date.now();
      const r = await run(['bookings', 'list', '--timeout', '0.6', '-o', 'ndjson'], { env: env() });
      const took = Date.now() - started;
      expect(r.code, show(r)).toBe(1);
      expect(took).toBeGreaterThanOrEqual(590); // 600, give or take the clocks' milliseconds
      expect(took).toBeLessThan(5000); // not the 30 s default; room for a loaded machine
      expect(lines(r.stderr)[0]).toBe('error: GET /api/v1/bookings: no response within 0.6s');
      expect(r.stdout).toBe('');
      expectNoStack(r.stderr);
    });

    it('a stall part-way: whole lines so far and the cursor to resume from', async () => {
      server.setFaults(onPage(2, { kind: 'stall' }));
      const r = await runHere(['bookings', 'list', '--timeout', '0.5', '-o', 'ndjson'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(uidsUpTo(40));
      expect(resumeCursor(r.stderr)).toBe(server.cursorOf(2));
    });
  });

  describe('cursor loops are stopped', () => {
    it('a page whose next cursor is its own: exit 1, each item once', async () => {
      await server.close();
      server = await startServer({ count: 100, pageSize: 20, nextOverride: (p) => (p === 2 ? { next: server.cursorOf(2) } : undefined) });
      const r = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(r.stderr).toMatch(/same next cursor twice/);
      expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(uidsUpTo(60));
      expect(server.requests).toHaveLength(3);
    });

    it('a last page that points back to the first: stopped after one extra page, nothing printed twice, exit 1', async () => {
      await server.close();
      server = await startServer({ count: 100, pageSize: 20, nextOverride: (p) => (p === 4 ? { next: server.cursorOf(0) } : undefined) });
      const r = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      // The first page came without a cursor, so its cursor is new once: that page is fetched a second
      // time, recognised as a page already sent, and not printed again.
      expect(r.stderr).toMatch(/the server sent a page it had already sent \(next cursor .+\); stopping instead of looping/);
      expect(server.requests).toHaveLength(6);
      expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(uidsUpTo(100));
    });

    it('a cycle through three pages of Link headers: exit 1 before any page repeats', async () => {
      await server.close();
      const link = (p: number) => `/api/v1/bookings?cursor=${server.cursorOf(p)}`;
      server = await startServer({ count: 100, pageSize: 20, nextOverride: (p) => ({ link: link(p === 3 ? 1 : p + 1) }) });
      const r = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(r.stderr).toMatch(/same next page URL twice/);
      expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(uidsUpTo(80));
      expectNoStack(r.stderr);
    });
  });

  describe('bodies that are not JSON, in one line', () => {
    const bodies: [string, Fault, RegExp][] = [
      ['an HTML page', { kind: 'non-json' }, /^error: GET \/api\/v1\/bookings: the response is not valid JSON \(content-type text\/html\)/],
      [
        'JSON cut in half',
        { kind: 'truncated' },
        /^error: GET \/api\/v1\/bookings: the response is not valid JSON \(content-type application\/json\)/,
      ],
      ['an empty 200', { kind: 'status', status: 200, body: '' }, /^error: GET \/api\/v1\/bookings: expected JSON, got an empty body/],
      [
        'a 500 error page in HTML',
        { kind: 'status', status: 500, body: '<html>\n<h1>Oops</h1>\n</html>', contentType: 'text/html' },
        /^error: GET \/api\/v1\/bookings: 500 Internal Server Error\n$/,
      ],
    ];

    it.each(bodies)('%s on the first page: exit 1, one line', async (_what, fault, message) => {
      server.setFaults(onPage(0, fault));
      for (const format of ['ndjson', 'json']) {
        const r = await runHere(['bookings', 'list', '-o', format], { env: env() });
        expect(r.code, show(r)).toBe(1);
        expect(r.stdout).toBe('');
        expect(lines(r.stderr)).toHaveLength(1);
        expect(r.stderr).toMatch(message);
        expectNoStack(r.stderr);
      }
    });

    it('a truncated page part-way: whole lines, then the error and where to resume', async () => {
      server.setFaults(onPage(3, { kind: 'truncated' }));
      const r = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(expectWholeNdjson(r.stdout)).toHaveLength(60);
      expect(lines(r.stderr)[0]).toMatch(/not valid JSON/);
      expect(resumeCursor(r.stderr)).toBe(server.cursorOf(3));
    });

    it.each([['non-json'], ['truncated']] as const)('bookings get with a %s body: exit 1, one line', async (kind) => {
      server.setFaults((r) => (r.route === 'get' ? { kind } : undefined));
      const r = await runHere(['bookings', 'get', 'bk_0001'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(r.stdout).toBe('');
      expect(lines(r.stderr)).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: GET \/api\/v1\/bookings\/bk_0001: the response is not valid JSON/);
    });
  });
});
