// bookings list / get / event-types / api / whoami as a user runs them, against servers of many
// response shapes, piped and on a terminal. The terminal is a real pty for bookings list (its progress
// line, TZ as the process finds it); event-types, get, whoami and api run in-process with TTY streams
// (runMain tty, stdout and stderr read as one as a pty shows them), sparing four starts (~0.6 s of CPU).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_SHAPES, startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { runCliTty, tempConfigDir } from '../helpers/cli';
import { runMain, runMainTty } from '../helpers/in-process';

const uids = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `bk_${String(from + i).padStart(4, '0')}`);

describe.each(ALL_SHAPES)('shape %s', (shape) => {
  let server: ShapeServer;
  const cfg = tempConfigDir();
  const env = () => ({ BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey });
  beforeAll(async () => {
    server = await startShapeServer({ shape, count: 23, maxPage: 5 });
  });
  afterAll(async () => {
    await server.close();
    cfg.cleanup();
  });

  it('ndjson: every booking once, in order, big ids exact', async () => {
    const r = await runMain(['bookings', 'list', '-o', 'ndjson'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines.map((l) => /"uid":"([^"]+)"/.exec(l)?.[1])).toEqual(uids(23));
    expect(lines[0]).toContain('"id":9007199254740993,');
    expect(lines[22]).toContain('"id":9007199254741015,');
  });

  it('--limit is a total across pages smaller than asked', async () => {
    const r = await runMain(['bookings', 'list', '--limit', '12', '--json'], { env: env() });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.stdout) as { uid: string }[];
    expect(body.map((b) => b.uid)).toEqual(uids(12));
    expect(r.stdout.startsWith('[\n  {\n    "uid": "bk_0000",')).toBe(true);
  });

  it('tsv when piped: one line per booking, no header, values as received', async () => {
    const r = await runMain(['bookings', 'list', '--fields', 'uid,status,start,attendee.name'], { env: env() });
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(23);
    expect(lines[1]).toBe('bk_0001\tconfirmed\t2026-11-01T10:00:00.000Z\tPerson 0001');
  });
});

describe('against one server', () => {
  let server: ShapeServer;
  const cfg = tempConfigDir();
  const env = (extra: Record<string, string> = {}) => ({
    BOOKING_CONFIG_DIR: cfg.dir,
    BOOKING_BASE_URL: server.url,
    BOOKING_API_KEY: server.apiKey,
    ...extra,
  });
  beforeAll(async () => {
    server = await startShapeServer({ shape: 'data-meta', count: 9, maxPage: 4 });
  });
  afterAll(async () => {
    await server.close();
    cfg.cleanup();
  });

  it('table on a terminal: header, local times, fits the width', async () => {
    const r = await runCliTty(['bookings', 'list'], { env: env({ TZ: 'UTC' }), columns: 100 });
    expect(r.code).toBe(0);
    expect(r.output).toMatch(/uid/i);
    expect(r.output).toContain('bk_0008');
    expect(r.output).toContain('2026-11-01 09:00');
    // What the terminal shows of each line: after the last carriage return, without SGR/erase codes.
    const shown = (line: string) => line.slice(line.lastIndexOf('\r') + 1).replace(/\x1b\[[0-9;]*[mK]/g, '');
    for (const line of r.output.split('\n')) expect(shown(line).length).toBeLessThanOrEqual(100);
    expect(r.output).toMatch(/Fetching… 3 pages, 9 items/);
  });

  it('on a terminal: event-types and bookings get as tables, whoami too with its stderr lines, api --paginate as JSON', async () => {
    const et = await runMainTty(['event-types'], { env: env({ NO_COLOR: '1' }), columns: 80 });
    expect(et.code).toBe(0);
    expect(et.output).toMatch(/ID\s+SLUG\s+TITLE/);
    expect(et.output).toMatch(/\n1\s+30min\s+30 min/);
    const get = await runMainTty(['bookings', 'get', 'bk_0003'], { env: env({ NO_COLOR: '1' }), columns: 80 });
    expect(get.code).toBe(0);
    expect(get.output).toMatch(/uid\s+bk_0003/);
    expect(get.output).toMatch(/attendee\.name\s+Person 0003/);
    const me = await runMainTty(['whoami'], { env: env({ NO_COLOR: '1' }), columns: 80 });
    expect(me.code).toBe(0);
    expect(me.output).toMatch(/name\s+Test Owner/);
    expect(me.output).toContain('key: ****1234 (env: BOOKING_API_KEY)');
    const api = await runMainTty(['api', '/api/v1/bookings', '--paginate', '-q'], { env: env({ NO_COLOR: '1' }) });
    expect(api.code).toBe(0);
    expect(JSON.parse(api.output.replace(/\r\n/g, '\n')).map((b: { uid: string }) => b.uid)).toEqual(uids(9));
  });

  it('bookings get: the resource unwrapped, tsv key/value when piped', async () => {
    const r = await runMain(['bookings', 'get', 'bk_0003'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('uid\tbk_0003\n');
    expect(r.stdout).toContain('id\t9007199254740996\n');
    expect(r.stdout).toContain('attendee.name\tPerson 0003\n');
    const j = await runMain(['bookings', 'get', 'bk_0003', '--json'], { env: env() });
    expect(JSON.parse(j.stdout).uid).toBe('bk_0003');
    expect(j.stdout).toContain('"id": 9007199254740996,');
  });

  it('bookings get of an unknown uid: exit 4 with the server message', async () => {
    const r = await runMain(['bookings', 'get', 'nope/../x'], { env: env() });
    expect(r.code).toBe(4);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('404');
    expect(r.stderr).toContain('booking nope/../x not found');
    expect(server.requests.at(-1)?.url).toBe('/api/v1/bookings/nope%2F..%2Fx');
  });

  it('--no-paginate: one page, next cursor on stderr; with --json the body as received', async () => {
    const r = await runMain(['bookings', 'list', '--no-paginate', '-o', 'ndjson'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(4);
    const cursor = /--cursor (\S+)/.exec(r.stderr)?.[1];
    expect(cursor).toBeTruthy();
    const rest = await runMain(['bookings', 'list', '--cursor', cursor!, '-o', 'ndjson'], { env: env() });
    expect(
      rest.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).uid),
    ).toEqual(uids(5, 4));
    const body = await runMain(['bookings', 'list', '--no-paginate', '--json'], { env: env() });
    expect(JSON.parse(body.stdout).meta.next_cursor).toBe(cursor);
  });

  it('event-types and whoami', async () => {
    const et = await runMain(['event-types', '--json'], { env: env() });
    expect(et.code).toBe(0);
    expect(JSON.parse(et.stdout).map((e: { slug: string }) => e.slug)).toEqual(['30min', '60min']);
    const me = await runMain(['whoami'], { env: env() });
    expect(me.code).toBe(0);
    expect(me.stdout).toContain('name\tTest Owner');
    // Piped stderr: no context lines, as gh prints its hints only on a terminal.
    expect(me.stderr).toBe('');
    expect(me.stderr + me.stdout).not.toContain(server.apiKey);
  });

  it('api: any path, -F query parameters, --paginate', async () => {
    const r = await runMain(['api', '/api/v1/bookings', '-F', 'limit=2'], { env: env() });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).data).toHaveLength(2);
    expect(server.requests.at(-1)?.url).toBe('/api/v1/bookings?limit=2');
    const all = await runMain(['api', 'api/v1/bookings', '--paginate'], { env: env() });
    expect(JSON.parse(all.stdout).map((b: { uid: string }) => b.uid)).toEqual(uids(9));
  });

  it('a wrong key is exit 3; no base URL is exit 3 with a login hint', async () => {
    const bad = await runMain(['bookings', 'list'], { env: env({ BOOKING_API_KEY: 'wrong' }) });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('401');
    const none = await runMain(['bookings', 'list'], { env: { BOOKING_CONFIG_DIR: cfg.dir } });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('booking login --base-url');
  });
});

describe('--no-paginate --json on a server that pages with a Link header', () => {
  it('prints the body as received, and the next page on stderr (the body does not carry it)', async () => {
    const server = await startShapeServer({ shape: 'bare-link', count: 9, maxPage: 4 });
    const cfg = tempConfigDir();
    try {
      const env = { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey };
      const r = await runMain(['bookings', 'list', '--no-paginate', '--json'], { env });
      expect(r.code).toBe(0);
      expect((JSON.parse(r.stdout) as { uid: string }[]).map((b) => b.uid)).toEqual(uids(4));
      const next = /^next page: --cursor (\S+)\n$/.exec(r.stderr)?.[1];
      expect(next, r.stderr).toBeTruthy();
      const rest = await runMain(['bookings', 'list', '--cursor', next!.replace(/^'|'$/g, ''), '-o', 'ndjson'], { env });
      expect(
        rest.stdout
          .trimEnd()
          .split('\n')
          .map((l) => (JSON.parse(l) as { uid: string }).uid),
      ).toEqual(uids(5, 4));
    } finally {
      await server.close();
      cfg.cleanup();
    }
  });

  it('-q keeps the next page (it is how a script pages by hand); --limit cutting the page says what the cursor skips', async () => {
    const server = await startShapeServer({ shape: 'data-meta', count: 9, maxPage: 4 });
    const cfg = tempConfigDir();
    try {
      const env = { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey };
      const quiet = await runMain(['-q', 'bookings', 'list', '--no-paginate', '--fields', 'uid'], { env });
      expect(quiet.code).toBe(0);
      expect(quiet.stdout.trimEnd().split('\n')).toEqual(uids(4));
      expect(quiet.stderr).toMatch(/^next page: --cursor \S+\n$/);
      const cut = await runMain(['bookings', 'list', '--no-paginate', '--page-size', '4', '--limit', '1', '--fields', 'uid'], { env });
      expect(cut.code).toBe(0);
      expect(cut.stdout).toBe(`${uids(1)[0]}\n`);
      expect(cut.stderr).not.toMatch(/^next page: --cursor/m);
      expect(cut.stderr).toMatch(
        /^next page, after the 3 items of this page that --limit left out: --cursor \S+ \(to page by hand, use --page-size 1 instead of --limit\)\n$/,
      );
    } finally {
      await server.close();
      cfg.cleanup();
    }
  });
});
