// bookings watch over a list that shifts while it is walked (offset cursors, a booking deleted after
// the first page is read): the booking the shift skips is not called removed and re-added, which
// forwarded a second booking.created and lost the change made meanwhile (review s34b, F1). A booking the
// walk misses is asked for by its uid; one the service still has is kept once; missed again, removed.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { runMain } from '../helpers/in-process';

type Booking = { uid: string; status: string; start: string; end: string };
const booking = (i: number, start = `2026-12-0${i}T09:00:00Z`): Booking => ({
  uid: `bk_${i}`,
  status: 'confirmed',
  start,
  end: start.replace(':00:00Z', ':30:00Z'),
});

let listed: Booking[] = [];
/** What GET /api/v1/bookings/{uid} finds: the list, and what the list hides. */
let known: Booking[] = [];
/** The list as it becomes right after the next list page is served. */
let afterFirstPage: Booking[] | undefined;
const delivered: { event: string; uid: string }[] = [];
/** The single-booking endpoint answers 500 when set; its requests are counted. */
let failGet = false;
let gets = 0;
let service: { url: string; close(): Promise<void> };
let dir: string;

beforeAll(async () => {
  service = await serve((req, res) => {
    const url = new URL(req.url!, 'http://x');
    const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (url.pathname === '/hooks') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c));
      req.on('end', () => {
        const d = JSON.parse(body) as { event: string; data: { booking: { uid: string } } };
        delivered.push({ event: d.event, uid: d.data.booking.uid });
        json(200, {});
      });
      return;
    }
    const one = /^\/api\/v1\/bookings\/([^/]+)$/.exec(url.pathname);
    if (one) {
      gets++;
      if (failGet) return void json(500, { error: 'down' });
      const b = known.find((k) => k.uid === decodeURIComponent(one[1]!));
      json(b ? 200 : 404, b ? { data: b } : { error: 'not found' });
      return;
    }
    // Offset cursors: the cursor is the index of the next booking.
    const limit = Number(url.searchParams.get('limit') ?? 3);
    const at = Number(url.searchParams.get('cursor') ?? 0);
    const next = at + limit < listed.length ? String(at + limit) : null;
    json(200, { data: listed.slice(at, at + limit), meta: { next_cursor: next } });
    if (afterFirstPage) [listed, afterFirstPage] = [afterFirstPage, undefined];
  });
  dir = mkdtempSync(join(tmpdir(), 'booking-watch-shift-'));
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const state = () => join(dir, 'watch.state');
const once = async (...args: string[]) => {
  const r = await runMain(['bookings', 'watch', '--state', state(), '--once', '--page-size', '3', '-o', 'ndjson', ...args], {
    env: {
      BOOKING_BASE_URL: service.url,
      BOOKING_API_KEY: 'sk_test_shift',
      BOOKING_WEBHOOK_SECRET: 'whsec_shift',
      BOOKING_CONFIG_DIR: join(dir, 'config'),
    },
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { type: string; uid: string; changes?: Record<string, unknown> })
    .map((e) => [e.type, e.uid, ...Object.keys(e.changes ?? {})]);
};

describe('bookings watch over a list that shifts under paging', () => {
  it('a booking the shift skips is kept, and its change is the one delivery; a removal the service confirms is said at once', async () => {
    listed = known = [1, 2, 3, 4, 5, 6, 7].map((i) => booking(i));
    expect(await once()).toEqual([]);
    // bk_1 is deleted once page 1 (bk_1..bk_3) is read: page 2 starts at bk_5, and bk_4 is never walked.
    afterFirstPage = known = listed.slice(1);
    expect(await once('--forward-to', `${service.url}/hooks`)).toEqual([]);
    // Meanwhile bk_4 (never removed) is rescheduled; the next walk misses bk_1, which the service has no more.
    listed = known = known.map((b) => (b.uid === 'bk_4' ? booking(4, '2027-02-01T10:00:00Z') : b));
    expect(await once('--forward-to', `${service.url}/hooks`)).toEqual([
      ['changed', 'bk_4', 'start', 'end'],
      ['removed', 'bk_1'],
    ]);
    expect(delivered).toEqual([{ event: 'booking.rescheduled', uid: 'bk_4' }]);
  });

  it('a booking the list hides but the service still shows is kept once, then removed; --state keeps the mark', async () => {
    listed = listed.filter((b) => b.uid !== 'bk_7');
    expect(await once()).toEqual([]);
    expect(JSON.parse(readFileSync(state(), 'utf8').split('\n')[0]!).missed).toEqual(['bk_7']);
    expect(await once()).toEqual([['removed', 'bk_7']]);
    expect(JSON.parse(readFileSync(state(), 'utf8').split('\n')[0]!).missed).toBeUndefined();
  });

  it('a single-booking endpoint that fails is asked once a poll: the missed bookings are kept, then removed when missed again', async () => {
    [failGet, gets] = [true, 0];
    listed = listed.filter((b) => b.uid !== 'bk_5' && b.uid !== 'bk_6');
    expect(await once('--retries', '0')).toEqual([]);
    expect(gets).toBe(1);
    expect(await once('--retries', '0')).toEqual([
      ['removed', 'bk_5'],
      ['removed', 'bk_6'],
    ]);
    expect(gets).toBe(1);
    failGet = false;
  });
});
