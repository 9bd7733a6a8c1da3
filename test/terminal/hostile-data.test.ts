// Text from the API may carry terminal escape sequences: colour and screen-clearing CSI, an OSC that
// retitles the window, BEL, a C1 CSI, bidi overrides that reorder what is shown, a CR that rewrites the
// line. None of it may reach the terminal raw — not in tsv, not in a table on a pty, not in
// `bookings get`, not in error messages quoting the server, not in a cursor shown for resuming.
// The terminal is the output door's (src/output/door.ts: escaped when the stream is a TTY): the runs on
// a terminal are in-process with TTY streams (runMain, tty), stdout and stderr read as one as a pty
// shows them, but for the coloured table, kept on a real pseudo-terminal (colour as the process finds
// it, end to end). Each pty run was a start of ~0.15 s of CPU.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bookingJson } from '../helpers/shape-server';
import type { FaultServer, FaultServerOptions } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { envFor, expectNoLeaks, expectNoStack, runHere, runHereTty, runTty, show, startServer } from '../helpers/hardening-kit';

/** Every kind of hostile control sequence, between plain words that must survive. */
const HOSTILE =
  'A\x1b[31mRED\x1b[0m B\x1b]0;pwned-title\x07 C\x07bell D\u009b2J E\u202eevil\u202c F\rG \x1b[2J H\u2066iso\u2069 I\u0085J\x00K\x7f';
/** Anything raw that a terminal would act on; \t and \n are the formats' own separators. */
const RAW = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
const WORDS = ['RED', 'pwned-title', 'bell', 'evil', 'iso'];

/** A booking whose title, status, attendee name and one field name are hostile. */
function hostileItem(i: number): string {
  const n = String(i).padStart(4, '0');
  const h = JSON.stringify(HOSTILE);
  return bookingJson(i)
    .replace(`"Meeting ${n}"`, h)
    .replace(`"Person ${n}"`, h)
    .replace(/"status":"(\w+)"/, `"status":"$1\\u001b[5m"`)
    .replace(/}$/, `,"no\\u001b[2Jte":${h}}`);
}

function expectSafe(text: string, words = WORDS): void {
  const at = RAW.exec(text);
  expect(
    at,
    `raw ${JSON.stringify(at?.[0])} at ${at?.index}: ${JSON.stringify(text.slice(Math.max(0, (at?.index ?? 0) - 30), (at?.index ?? 0) + 30))}`,
  ).toBeNull();
  for (const w of words) expect(text).toContain(w);
}

describe('hostile strings from the API', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = (extra: Record<string, string> = {}) => envFor(server.url, cfg.dir, { TZ: 'UTC', ...extra });
  const restart = async (opts: FaultServerOptions) => {
    await server.close();
    server = await startServer(opts);
  };
  beforeEach(async () => {
    server = await startServer({ count: 30, pageSize: 10, rawItem: hostileItem, rawRecord: hostileItem(7) });
  });
  afterEach(() => server.close());
  afterAll(() => {
    cfg.cleanup();
    expectNoLeaks('hostile-data');
  });

  it('tsv piped: escaped, one line per booking, every column in place', async () => {
    const r = await runHere(['bookings', 'list', '--fields', 'uid,title,status,attendee.name'], { env: env() });
    expect(r.code, show(r)).toBe(0);
    expectSafe(r.stdout);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(30);
    for (const row of rows) expect(row).toHaveLength(4);
  });

  it("table on a terminal, colour off and on: nothing raw but the table's own colour", async () => {
    const plain = await runHereTty(['bookings', 'list', '-q'], { env: env({ NO_COLOR: '1' }), columns: 200 });
    expect(plain.code, show(plain)).toBe(0);
    expectSafe(plain.output, ['RED', 'pwned-title']); // the rest is cut to the width
    const coloured = await runTty(['bookings', 'list', '-q', '--fields', 'uid,title,status'], { env: env(), columns: 200 });
    expect(coloured.code, show(coloured)).toBe(0);
    // Only SGR colour codes, which the CLI writes itself, may remain; none of the data's sequences.
    const withoutSgr = coloured.output.replace(/\x1b\[[0-9;]*m/g, '');
    expectSafe(withoutSgr, ['RED', 'pwned-title']);
    expect(coloured.output).not.toContain('\x1b[31mRED');
  });

  it('a table whose columns come from the data: hostile field names are escaped in the header', async () => {
    const r = await runHereTty(['api', '/api/v1/bookings', '--paginate', '-o', 'table', '-q'], {
      env: env({ NO_COLOR: '1' }),
      columns: 400,
    });
    expect(r.code, show(r)).toBe(0);
    expectSafe(r.output, ['RED', 'pwned-title']);
    expect(r.output.toUpperCase()).toContain('NO\\');
  });

  it('bookings get: piped, on a terminal and as JSON', async () => {
    const piped = await runHere(['bookings', 'get', 'bk_0007'], { env: env() });
    expect(piped.code, show(piped)).toBe(0);
    expectSafe(piped.stdout);
    const tty = await runHereTty(['bookings', 'get', 'bk_0007'], { env: env({ NO_COLOR: '1' }) });
    expect(tty.code, show(tty)).toBe(0);
    expectSafe(tty.output);
    // JSON escapes what JSON escapes, and the value comes back exactly.
    const json = await runHere(['bookings', 'get', 'bk_0007', '--json'], { env: env() });
    expect(json.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect((JSON.parse(json.stdout) as { title: string }).title).toBe(HOSTILE);
  });

  it('ndjson: no raw C0 controls, values exact', async () => {
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--limit', '3'], { env: env() });
    expect(r.stdout).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { title: string }).title),
    ).toEqual([HOSTILE, HOSTILE, HOSTILE]);
  });

  it.each([
    ['message', (h: string) => ({ message: h })],
    ['error.message', (h: string) => ({ error: { message: h } })],
    ['detail', (h: string) => ({ detail: h, title: 'Bad' })],
  ])('an error whose %s is hostile: escaped on one line, piped and on a terminal', async (_field, body) => {
    server.setFaults(() => ({ kind: 'status', status: 422, body: JSON.stringify(body(HOSTILE)) }));
    const piped = await runHere(['bookings', 'get', 'bk_0001'], { env: env() });
    expect(piped.code, show(piped)).toBe(1);
    expect(piped.stderr.trimEnd().split('\n')).toHaveLength(1);
    expectSafe(piped.stderr.trimEnd());
    expectNoStack(piped.stderr);
    const tty = await runHereTty(['bookings', 'list'], { env: env({ NO_COLOR: '1' }) });
    expect(tty.code, show(tty)).toBe(1);
    expectSafe(tty.output);
  });

  it('a hostile cursor is shown escaped when the user is told where to resume or to go next', async () => {
    const cursor = 'c\x1b]0;owned\x07\u202eX';
    await restart({
      count: 30,
      pageSize: 10,
      rawItem: (i) => bookingJson(i),
      nextOverride: (p) => (p === 0 ? { next: cursor } : undefined),
    });
    // The server answers that cursor with 404: the listing fails part-way and names it.
    const failed = await runHere(['bookings', 'list', '-o', 'ndjson'], { env: env() });
    expect(failed.code, show(failed)).toBe(4);
    expect(failed.stderr).toContain('--cursor');
    expectSafe(failed.stderr, ['owned']);
    const onePage = await runHere(['bookings', 'list', '--no-paginate'], { env: env() });
    expect(onePage.code, show(onePage)).toBe(0);
    expect(onePage.stderr).toContain('--cursor');
    expectSafe(onePage.stderr, ['owned']);
  });

  it('api: a non-JSON body is escaped on a terminal', async () => {
    server.setFaults((r) =>
      r.route === 'other' ? { kind: 'status', status: 200, body: `plain ${HOSTILE}\n`, contentType: 'text/plain' } : undefined,
    );
    const r = await runHereTty(['api', '/text'], { env: env({ NO_COLOR: '1' }) });
    expect(r.code, show(r)).toBe(0);
    expectSafe(r.output);
  });
});
