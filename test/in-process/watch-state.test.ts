// bookings watch --state FILE against the sandbox, in-process: the first run saves the list, the next
// reports what changed while nothing watched; a state file of another service, profile or list, a
// damaged one or a symlink is refused with exit 2 and left byte for byte as it was.
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { serve } from '../../src/sandbox/core';
import { runMain } from '../helpers/in-process';

let sb: Sandbox;
let dir: string;
let state: string;
beforeEach(async () => {
  sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 30 });
  dir = mkdtempSync(join(tmpdir(), 'booking-watch-state-'));
  state = join(dir, 'watch.state');
});
afterEach(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (more: Record<string, string> = {}) => ({
  BOOKING_BASE_URL: sb.url,
  BOOKING_API_KEY: sb.apiKey,
  BOOKING_CONFIG_DIR: join(dir, 'config'),
  ...more,
});
const once = (args: string[] = [], more: Record<string, string> = {}) =>
  runMain(['bookings', 'watch', '--state', state, '--once', '-o', 'ndjson', ...args], { env: env(more) });

describe('bookings watch --state', () => {
  it('resumes: the first report is what changed while nothing watched, and the file is rewritten only when something did', async () => {
    expect((await once()).code).toBe(0);
    const saved = readFileSync(state, 'utf8');
    expect(saved.split('\n')[0]).toContain(`"base_url":"${sb.url}/"`);
    // The header, 30 bookings, and the two pages (of 20) known by their ETags.
    expect(saved.trim().split('\n')).toHaveLength(33);
    expect(saved.trim().split('\n').at(-1)).toMatch(/^\["\/api\/v1\/bookings .*","\\"[\w-]+\\"",/);
    const created = sb.advance();
    const confirmed = sb.advance();
    const run = await once();
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/^Resuming from .*watch\.state: 30 bookings as of 20/);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.uid])).toEqual([['added', created.booking.uid]]);
    expect(events[0].booking.status).toBe('confirmed');
    expect(confirmed.booking.uid).toBe(created.booking.uid);
    const moved = sb.advance(); // rescheduled
    const next = await once();
    const changed = JSON.parse(next.stdout);
    expect(changed).toMatchObject({
      type: 'changed',
      uid: moved.booking.uid,
      changes: { start: [moved.previous!.start, moved.booking.start] },
    });
    const unchanged = readFileSync(state, 'utf8');
    expect((await once()).stdout).toBe('');
    expect(readFileSync(state, 'utf8')).toBe(unchanged);
  });

  it('--initial lists on the run that starts the state, and a resumed run reports changes and says --initial was not used', async () => {
    const first = await once(['--initial']);
    expect(
      first.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type),
    ).toEqual(Array(30).fill('listed'));
    const created = sb.advance();
    const next = await once(['--initial']);
    expect(
      next.stdout
        .trim()
        .split('\n')
        .map((l) => [JSON.parse(l).type, JSON.parse(l).uid]),
    ).toEqual([['added', created.booking.uid]]);
    expect(next.stderr).toMatch(/^Resuming from .*: 30 bookings as of .*\. --initial is not used: what changed since is reported\.\n/);
  });

  it('a state file read back whole: a character cut by a 1 MiB read is not corrupted (no change reported that was not made)', async () => {
    await sb.close();
    // 200 bookings with titles of 9 KB of '€' (3 bytes each): the state file is ~1.8 MiB, and one of
    // the three offsets puts a 1 MiB read's edge inside a character.
    let offset = '';
    let cancelled = false;
    const items = () =>
      Array.from({ length: 200 }, (_, i) => ({
        uid: `bk_${i}`,
        title: `${i === 0 ? offset : ''}${'€'.repeat(3000)}`,
        status: cancelled && i === 150 ? 'cancelled' : 'confirmed',
      }));
    const server = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data: items() }));
    });
    try {
      for (const shift of ['', 'a', 'ab']) {
        rmSync(state, { force: true });
        offset = shift;
        cancelled = false;
        expect((await once([], { BOOKING_BASE_URL: server.url })).code).toBe(0);
        cancelled = true;
        const r = await once([], { BOOKING_BASE_URL: server.url });
        expect(r.code, r.stderr).toBe(0);
        expect(JSON.parse(r.stdout)).toMatchObject({ type: 'changed', uid: 'bk_150', changes: { status: ['confirmed', 'cancelled'] } });
        expect(Object.keys(JSON.parse(r.stdout).changes)).toEqual(['status']);
        expect(readFileSync(state, 'utf8')).not.toContain('\uFFFD');
      }
    } finally {
      await server.close();
      sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 30 });
    }
  });

  it("keeps the pages' ETags: the next run asks with If-None-Match, and only a changed page is read again", async () => {
    await sb.close();
    const statuses: string[] = [];
    sb = await startSandbox({
      port: 0,
      tickSeconds: 0,
      bookings: 30,
      log: (l) => void (l.includes(' GET ') && statuses.push(l.split(' ')[3]!)),
    });
    await once();
    expect((await once()).stdout).toBe('');
    sb.advance(); // a new booking, on the last page
    expect(JSON.parse((await once()).stdout).type).toBe('added');
    expect(statuses).toEqual(['200', '200', '304', '304', '304', '200']);
  });

  it('-L N over pages that come back 304: the limit counts them, so nothing is taken for added and the state keeps N', async () => {
    expect((await once(['-L', '15', '--page-size', '10'])).code).toBe(0);
    const again = await once(['-L', '15', '--page-size', '10']);
    expect(again).toMatchObject({ code: 0, stdout: '' });
    expect(JSON.parse(readFileSync(state, 'utf8').split('\n')[0]!).bookings).toBe(15);
  });

  it('a list that loops back through pages that have not changed (304) ends with exit 1, never walks for ever', async () => {
    let loops = false;
    // First, then A, then B; once it loops, B names A again, which has not changed (304).
    const page = (cursor: string | null) =>
      cursor === 'B'
        ? { data: [{ uid: 'bk_b', status: 'confirmed' }], next_cursor: loops ? 'A' : null }
        : cursor === 'A'
          ? { data: [{ uid: 'bk_a', status: 'confirmed' }], next_cursor: 'B' }
          : { data: [{ uid: 'bk_0', status: 'confirmed' }], next_cursor: 'A' };
    const looping = await serve((req, res) => {
      const body = JSON.stringify(page(new URL(req.url!, 'http://x').searchParams.get('cursor')));
      const etag = `"${createHash('sha1').update(body).digest('hex')}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'application/json', etag }).end(body);
    });
    try {
      const run = () =>
        runMain(['bookings', 'watch', '--state', state, '--once', '-o', 'ndjson'], { env: env({ BOOKING_BASE_URL: looping.url }) });
      expect((await run()).code).toBe(0);
      loops = true;
      const r = await run();
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /came back to a page it had already passed \(cursor [AB]\) through pages that had not changed; stopping instead of looping/,
      );
    } finally {
      await looping.close();
    }
  });

  it('refuses a state file saved watching other --fields (exit 2), and leaves it as it was', async () => {
    expect((await once(['--fields', 'type,uid,booking.status'])).code).toBe(0);
    const saved = readFileSync(state, 'utf8');
    const r = await once();
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('was saved for the list with --fields booking.status, not without filters');
    expect(readFileSync(state, 'utf8')).toBe(saved);
    expect((await once(['--fields', 'type,uid,booking.status'])).stdout).toBe('');
  });

  it('refuses a state file of another base URL or profile (exit 2, naming both), and leaves it as it was', async () => {
    await once();
    const before = readFileSync(state);
    const other = await startSandbox({ port: 0, tickSeconds: 0, bookings: 3 });
    try {
      const run = await once([], { BOOKING_BASE_URL: other.url });
      expect(run).toMatchObject({ code: 2, stdout: '' });
      expect(run.stderr).toBe(
        `error: --state ${state} was saved for ${sb.url}/ (profile default), not ${other.url}/ (profile default); give each service its own state file.\n`,
      );
    } finally {
      await other.close();
    }
    const list = await once(['--status', 'confirmed']);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('was saved for the list without filters, not with --status confirmed');
    expect(readFileSync(state)).toEqual(before);
  });

  it.each([
    ['cut short', (text: string) => text.slice(0, text.lastIndexOf('\n', text.length - 2) + 1), 'where the header says'],
    ['not JSON', (text: string) => `${text}{oops\n`, 'line 34 is not JSON'],
    ['not a state file', () => '{"hello":1}\n', 'not a bookings watch state file'],
    ['a bad entry', (text: string) => text.replace(/\n\[[^\n]*\n/, '\n[1,2]\n'), 'line 2 is not a booking'],
    [
      "an entry's kept text not JSON",
      (text: string) => text.replace(/\n(\["[^"]*","[^"]*",1,)"[^\n]*\]\n/, '\n$1"not json{"]\n'),
      "line 2 is not a booking's entry",
    ],
  ])('a damaged state file (%s) is refused with exit 2 and never overwritten', async (_, damage, why) => {
    await once();
    writeFileSync(state, damage(readFileSync(state, 'utf8')));
    const before = readFileSync(state);
    sb.advance();
    const run = await once();
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toContain(`error: --state ${state} is damaged: `);
    expect(run.stderr).toContain(why);
    expect(run.stderr).toContain('It is left as it is; move it away');
    expect(readFileSync(state)).toEqual(before);
  });

  it('a state file that is a symlink is refused, the file it points to untouched', async () => {
    const real = join(dir, 'real.state');
    writeFileSync(real, 'precious\n');
    symlinkSync(real, state);
    const run = await once();
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('is a symbolic link');
    expect(readFileSync(real, 'utf8')).toBe('precious\n');
  });
});

describe('bookings changes --since', () => {
  it('an empty file is exit 2 (no list to compare with), not every booking reported as added', async () => {
    writeFileSync(state, '');
    const r = await runMain(['bookings', 'changes', '--since', state, '-o', 'ndjson'], { env: env() });
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('is an empty file, not a saved state');
  });
  it('a state file: the same report as one watch poll, ndjson when piped, exit 0, the file only read', async () => {
    await once();
    const before = readFileSync(state);
    const created = sb.advance();
    const run = await runMain(['bookings', 'changes', '--since', state], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'added', uid: created.booking.uid });
    expect(readFileSync(state)).toEqual(before);
    const nothing = await runMain(['bookings', 'changes', '--since', state, '--status', 'confirmed'], { env: env() });
    expect(nothing.code).toBe(2);
    // Named by the option the user gave: changes has no --state.
    expect(nothing.stderr).toBe(
      `error: --since ${state} was saved for the list without filters, not with --status confirmed; give each list its own state file.\n`,
    );
  });

  it('a time: the bookings created or updated since, by their created_at and updated_at', async () => {
    // create, confirm, reschedule, create, cancel, complete (a booking of the seed's).
    const changes = Array.from({ length: 6 }, () => sb.advance());
    const [created, , , second, , completed] = changes;
    const run = await runMain(['bookings', 'changes', '--since', '2026-01-05T00:00:00Z'], { env: env() });
    expect(run.code, run.stderr).toBe(0);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => [e.type, e.uid])).toEqual([
      ['updated', completed!.booking.uid],
      ['added', created!.booking.uid],
      ['added', second!.booking.uid],
    ]);
    expect(events[0].booking.status).toBe('completed');
    const none = await runMain(['bookings', 'changes', '--since', '2h'], { env: env() });
    expect(none).toMatchObject({ code: 0, stdout: '' });
    expect(none.stderr).toMatch(/^No booking changed since 20\d\d-.*Z\.\n$/);
    const bad = await runMain(['bookings', 'changes', '--since', 'yesterday-ish'], { env: env() });
    expect(bad).toMatchObject({ code: 2, stdout: '' });
    expect(bad.stderr).toContain('--since yesterday-ish: no such file, and not a time');
    // A day past the month's end is no date (Date.parse reads 2026-11-31 as 1 December); a duration
    // past the bound says the bound.
    for (const [since, said] of [
      ['2026-11-31', 'error: --since 2026-11-31: no such file, and not a time'],
      ['2026-02-29T10:00:00Z', 'error: --since 2026-02-29T10:00:00Z: no such file, and not a time'],
      ['9000h', 'error: --since 9000h: further back than a duration may go (8784h, 366 days); give the time instead (2025-06-01).\n'],
    ]) {
      const r = await runMain(['bookings', 'changes', '--since', since!], { env: env() });
      expect([r.code, r.stdout], since).toEqual([2, '']);
      expect(r.stderr).toContain(said);
    }
    const leap = await runMain(['bookings', 'changes', '--since', '2024-02-29'], { env: env() });
    expect(leap.code, leap.stderr).toBe(0);
  });
});

describe('bookings watch --state, a save that fails', () => {
  it('says so once (exit 1), leaving the file as it was last saved', async () => {
    const { renameSync } = await import('node:fs');
    await once();
    // A name the file system takes, whose temporary file beside it (longer by a suffix) it does not.
    const long = join(dir, `${'s'.repeat(240)}.state`);
    renameSync(state, long);
    state = long;
    const before = readFileSync(state);
    sb.advance();
    const run = await once();
    expect(run.code).toBe(1);
    expect(run.stderr.match(/cannot save --state/g)).toHaveLength(1);
    expect(run.stderr).toContain(`error: cannot save --state ${state}: ENAMETOOLONG; the file is left as it was last saved.\n`);
    expect(readFileSync(state)).toEqual(before);
  });

  it('a temporary file left by a run killed mid-save (a pid used again) neither stops the save nor is removed', async () => {
    const { existsSync, mkdirSync, readdirSync } = await import('node:fs');
    await once();
    const leftover = `${state}.${process.pid}.tmp`;
    mkdirSync(leftover);
    sb.advance();
    const run = await once();
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(leftover)).toBe(true);
    // The save's own temporary file is gone: renamed over the state.
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([`watch.state.${process.pid}.tmp`]);
  });
});
