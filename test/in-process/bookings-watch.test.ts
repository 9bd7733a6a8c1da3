// bookings watch with an injected clock and a scripted service: which events each poll prints,
// how long it waits (the interval, a 429's Retry-After), and how it ends (Ctrl-C 0, a lost service 1).
import { describe, expect, it } from 'vitest';
import type { BookingsWatchOptions } from '../../src/commands/bookings/watch/options';
import { runBookingsWatch } from '../../src/commands/bookings/watch/run';
import type { Context, GlobalOptions } from '../../src/context';
import { FailureError, InterruptedError, NotFoundError, RateLimitError } from '../../src/base/errors';
import type { HttpClient } from '../../src/http/types';
import { makeResponse } from '../../src/http/response';
import { testIO, type TestIO } from '../../src/output/io';
import { runMain } from '../helpers/in-process';

type Poll = Record<string, unknown>[] | Error | { items: Record<string, unknown>[]; headers: Record<string, string> };

const bk = (uid: string, status: string, start = '2026-02-01T10:00:00Z') => ({ uid, title: `Call ${uid}`, status, start });

interface Run {
  code: number | undefined;
  io: TestIO;
  waits: number[];
  requests: number;
}

/** Runs watch over the scripted polls; after the last one, the next wait is Ctrl-C. */
async function watch(
  polls: Poll[],
  opts: Partial<BookingsWatchOptions> = {},
  globals: Partial<GlobalOptions> = {},
  tty = false,
): Promise<Run> {
  const io = testIO({ tty, color: tty, columns: 120 });
  const abort = new AbortController();
  let clock = Date.parse('2026-03-01T12:00:00Z');
  const waits: number[] = [];
  let requests = 0;
  const base = new URL('http://127.0.0.1:9/');
  const client: HttpClient = {
    baseUrl: base,
    async get(path) {
      // A booking a walk missed is asked for (confirm.ts): these scripted services have removed it.
      if (/^\/api\/v1\/bookings\/[^/?]+$/.test(path)) throw new NotFoundError(`GET ${path}: not found`);
      const poll = polls[requests++];
      clock += 250; // each request takes a quarter of a second
      if (poll === undefined) throw new Error('no more polls scripted');
      if (poll instanceof Error) throw poll;
      const [items, headers] = Array.isArray(poll) ? [poll, {}] : [poll.items, poll.headers];
      const body = JSON.stringify({ data: items, meta: { next_cursor: null } });
      return makeResponse('GET', new URL(path, base), 200, { 'content-type': 'application/json', ...headers }, Buffer.from(body));
    },
    async close() {},
  };
  const ctx: Context = {
    io,
    env: {},
    globals: { profile: 'default', noColor: !tty, timeoutMs: 1000, retries: 0, debug: false, quiet: false, allowHttp: false, ...globals },
    signal: abort.signal,
    now: () => new Date(clock),
    async sleep(ms) {
      waits.push(ms);
      clock += ms;
      if (requests >= polls.length) {
        abort.abort();
        throw new InterruptedError();
      }
    },
    config: () => Promise.reject(new Error('not used')),
    connection: async () => ({ profile: 'default', baseUrl: base, apiKey: 'k', keySource: 'env' }),
    http: async () => client,
  };
  const code = (await runBookingsWatch({ interval: 10, scheme: 'service', retry: true, ...opts }, ctx)) ?? undefined;
  return { code, io, waits, requests };
}

const events = (io: TestIO) =>
  io
    .out()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

describe('bookings watch', () => {
  it('prints added, changed (old → new) and removed, one JSON event per line, and stops on Ctrl-C with 0', async () => {
    const r = await watch(
      [
        [bk('a', 'pending'), bk('b', 'confirmed')],
        [bk('a', 'confirmed'), bk('b', 'confirmed'), bk('c', 'pending')],
        [bk('a', 'confirmed', '2026-02-03T09:00:00Z'), bk('c', 'pending')],
        [bk('a', 'confirmed', '2026-02-03T09:00:00Z'), bk('c', 'pending')],
      ],
      {},
      { output: 'ndjson' },
    );
    expect(r.code).toBe(0);
    expect(events(r.io)).toEqual([
      { type: 'changed', uid: 'a', changes: { status: ['pending', 'confirmed'] }, at: '2026-03-01T12:00:10.000Z' },
      { type: 'added', uid: 'c', booking: bk('c', 'pending'), at: '2026-03-01T12:00:10.000Z' },
      { type: 'changed', uid: 'a', changes: { start: ['2026-02-01T10:00:00Z', '2026-02-03T09:00:00Z'] }, at: '2026-03-01T12:00:20.000Z' },
      { type: 'removed', uid: 'b', last: { title: 'Call b', status: 'confirmed' }, at: '2026-03-01T12:00:20.000Z' },
    ]);
    expect(r.io.err()).toBe('Watching 2 bookings, every 10s; Ctrl-C to stop.\n');
  });

  it('polls every --interval from the start of the last poll, on the injected clock', async () => {
    const r = await watch([[bk('a', 'pending')], [bk('a', 'pending')], [bk('a', 'pending')]], { interval: 5 }, { output: 'ndjson' });
    // Each poll took 250 ms of the 5 s.
    expect(r.waits).toEqual([4750, 4750, 4750]);
    expect(r.io.out()).toBe('');
  });

  it('--initial prints the current list first, as "listed" events; --fields cuts them and chooses what is watched', async () => {
    const r = await watch(
      [[bk('a', 'pending')], [{ ...bk('a', 'pending'), title: 'renamed' }], [{ ...bk('a', 'cancelled'), title: 'renamed' }]],
      { initial: true },
      { output: 'ndjson', fields: ['type', 'uid', 'booking.uid', 'booking.status', 'changes'] },
    );
    // The rename is not watched (no booking.title named): only the status change is an event.
    expect(events(r.io)).toEqual([
      { type: 'listed', uid: 'a', booking: { uid: 'a', status: 'pending' } },
      { type: 'changed', uid: 'a', changes: { status: ['pending', 'cancelled'] } },
    ]);
  });

  it('--jq and --fields apply to each event; a field no event has is exit 2 before the first poll', async () => {
    const polls = [[bk('a', 'pending')], [bk('a', 'confirmed')]];
    // One jq worker for the whole stream: every event goes through it, not only the first.
    const jq = await watch([[bk('a', 'pending')], [bk('a', 'confirmed'), bk('b', 'pending')]], {}, { jq: '"\\(.type) \\(.uid)"' });
    expect(jq.io.out()).toBe('changed a\nadded b\n');
    const cut = await watch(polls, {}, { output: 'tsv', fields: ['uid', 'changes.status'] });
    expect(cut.io.out()).toBe('a\t["pending","confirmed"]\n');
    const typo = watch(polls, {}, { fields: ['stauts'] });
    await expect(typo).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('"stauts"') });
  });

  it('a booking field named under booking. that no booking has is exit 2, as for bookings list', async () => {
    await expect(watch([[bk('a', 'pending')]], {}, { fields: ['booking.stauts'] })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('"stauts"'),
    });
  });

  it("a 429 after the client's retries waits what Retry-After asks, at least the interval, and goes on", async () => {
    const limited = new RateLimitError('GET /api/v1/bookings: 429 Too Many Requests (after 3 retries)', undefined, 45_000);
    const r = await watch([[bk('a', 'pending')], limited, [bk('a', 'confirmed')]], {}, { output: 'ndjson' });
    expect(r.code).toBe(0);
    expect(r.waits).toEqual([9750, 44_750, 9750]);
    expect(r.io.err()).toContain('rate limited (429): next poll in 45s.\n');
    expect(events(r.io)).toMatchObject([{ type: 'changed', uid: 'a', changes: { status: ['pending', 'confirmed'] } }]);
    // Without a Retry-After: a growing wait, never under the interval.
    const bare = await watch([[bk('a', 'pending')], new RateLimitError('429'), [bk('a', 'pending')]], {}, { output: 'ndjson' });
    expect(bare.waits[1]).toBeGreaterThanOrEqual(9750);
  });

  it('rate-limit headers that leave fewer requests than a poll needs: the next poll waits for the reset', async () => {
    const at = (epochS: number) => ({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(epochS) });
    // The reset 2 minutes after the (scripted) clock's 12:00:00.
    const reset = Date.parse('2026-03-01T12:02:00Z') / 1000;
    const r = await watch(
      [
        { items: [bk('a', 'pending')], headers: at(reset) },
        { items: [bk('a', 'pending')], headers: { ratelimit: 'limit=100, remaining=50, reset=30' } },
        [bk('a', 'pending')],
      ],
      {},
      { output: 'ndjson' },
    );
    expect(r.waits).toEqual([120_000 - 250, 9750, 9750]);
    expect(r.io.err()).toContain('rate limit nearly reached (headers of the last answer): next poll in 120s, when the window resets.\n');
    const draft = await watch(
      [{ items: [bk('a', 'pending')], headers: { ratelimit: '"default";r=0;t=45' } }, [bk('a', 'pending')]],
      {},
      { output: 'ndjson' },
    );
    expect(draft.waits[0]).toBe(45_000);
  });

  it('a 429 asking for more than a timer holds: the wait is capped at 2^31-1 ms and said, never 1 ms', async () => {
    const huge = new RateLimitError('GET /api/v1/bookings: 429 Too Many Requests', undefined, 2_147_484_000);
    const r = await watch([[bk('a', 'pending')], huge], {}, { output: 'ndjson' });
    expect(r.waits).toEqual([9750, 2 ** 31 - 1]);
    expect(r.io.err()).toContain(
      "the wait before the next poll of 2,147,484 s is longer than the longest wait (2,147,483 s, about 24.9 days: node's timer limit); waiting that long instead.\n",
    );
  });

  it('a service that stays unreachable (after the retries) ends the watch with its error, exit 1', async () => {
    const lost = new FailureError('GET /api/v1/bookings: cannot connect to 127.0.0.1:9 (ECONNREFUSED) (after 3 retries)');
    await expect(watch([[bk('a', 'pending')], lost])).rejects.toMatchObject({ exitCode: 1, message: lost.message });
  });

  it('on a terminal: a header, then a line per change with the poll time, coloured by kind', async () => {
    const r = await watch(
      [
        [bk('bk_1', 'pending'), bk('bk_2', 'confirmed')],
        [bk('bk_1', 'confirmed'), bk('bk_3', 'pending')],
      ],
      {},
      { output: 'table' },
      true,
    );
    const plain = r.io.out().replace(/\x1b\[[0-9;]*m/g, '');
    const lines = plain.split('\n').filter(Boolean);
    expect(lines[0]).toMatch(/^TIME\s+EVENT\s+UID\s+DETAILS$/);
    expect(lines[1]).toMatch(/^\d\d:\d\d:\d\d {2}changed {2}bk_1 +status: pending → confirmed$/);
    expect(lines[2]).toMatch(/^\d\d:\d\d:\d\d {2}added {4}bk_3 +Call bk_3 · pending · 2026-02-0\d/);
    expect(lines[3]).toMatch(/^\d\d:\d\d:\d\d {2}removed {2}bk_2 +Call bk_2 · confirmed$/);
    expect(r.io.out()).toContain('\x1b[33mchanged'); // yellow
    expect(r.io.out()).toContain('\x1b[32madded'); // green
    expect(r.io.out()).toContain('\x1b[31mremoved'); // red
  });

  it('in a pipe: tsv, one line per changed field', async () => {
    const r = await watch([[bk('a', 'pending')], [bk('a', 'confirmed', '2026-02-02T10:00:00Z')]]);
    expect(r.io.out()).toBe(
      '2026-03-01T12:00:10.000Z\tchanged\ta\tstatus\tpending\tconfirmed\n' +
        '2026-03-01T12:00:10.000Z\tchanged\ta\tstart\t2026-02-01T10:00:00Z\t2026-02-02T10:00:00Z\n',
    );
  });

  it('tsv with --tz: the event time and a changed time in that zone, as a list shows them', async () => {
    const r = await watch([[bk('a', 'pending')], [bk('a', 'confirmed', '2026-02-02T10:00:00Z')]], {}, { tz: 'Asia/Tokyo' });
    expect(r.io.out()).toBe(
      '2026-03-01T21:00:10.000+09:00\tchanged\ta\tstatus\tpending\tconfirmed\n' +
        '2026-03-01T21:00:10.000+09:00\tchanged\ta\tstart\t2026-02-01T19:00:00+09:00\t2026-02-02T19:00:00+09:00\n',
    );
  });
});

describe('bookings watch flags', () => {
  it('refuses an interval under 2 s, and a --fields typo before connecting (exit 2)', async () => {
    const env = { BOOKING_BASE_URL: 'http://127.0.0.1:9', BOOKING_API_KEY: 'k', BOOKING_CONFIG_DIR: '/nonexistent-booking-test' };
    const short = await runMain(['bookings', 'watch', '--interval', '1s'], { env });
    expect(short.code).toBe(2);
    expect(short.stderr).toContain('--interval');
    const typo = await runMain(['bookings', 'watch', '--json', 'uid,stauts'], { env });
    expect(typo).toMatchObject({ code: 2, stdout: '' });
    expect(typo.stderr).toBe('error: no record has the field "stauts"; available fields: type, uid, booking, changes, last, at.\n');
  });

  it('--forward-to companions without it, a bad --retry-delays, and --no-retry with --retry-delays are exit 2 before connecting', async () => {
    const env = { BOOKING_BASE_URL: 'http://127.0.0.1:9', BOOKING_API_KEY: 'k', BOOKING_CONFIG_DIR: '/nonexistent-booking-test' };
    const cases: [string[], string][] = [
      [['--secret-file', 's.txt'], 'error: --secret-file is for --forward-to URL: without it nothing is forwarded.\n'],
      [['--no-retry'], 'error: --no-retry is for --forward-to URL: without it nothing is forwarded.\n'],
      [
        ['--forward-to', 'http://127.0.0.1:9/h', '--secret-file', 's.txt', '--no-retry', '--retry-delays', '1'],
        'error: --no-retry and --retry-delays are alternatives: give one.\n',
      ],
      [['--forward-to', 'ftp://x/', '--secret-file', 's.txt'], 'error: --forward-to must be an http:// or https:// URL, not ftp://.\n'],
      [['--scheme', 'stripe'], ''],
      [['--retry-delays', 'soon'], ''],
    ];
    for (const [args, stderr] of cases) {
      const r = await runMain(['bookings', 'watch', ...args], { env });
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      if (stderr) expect(r.stderr).toBe(stderr);
      else expect(r.stderr).toMatch(/^error: .*(--scheme|--retry-delays)/);
    }
  });
});
