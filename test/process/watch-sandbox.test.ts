// bookings watch against the sandbox's lifecycle. In-process, the sandbox's clock is the test's: each
// wait between polls makes one lifecycle change, so a whole cycle is seen in a few polls. `-s confirmed`
// gives all three kinds (a booking confirmed joins the list, a rescheduled one changes, a completed one
// leaves it). Then the real process, on real time: events as they happen, Ctrl-C exit 0.
import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runBookingsWatch } from '../../src/commands/bookings/watch/run';
import type { Context, OutputFormat } from '../../src/context';
import { InterruptedError } from '../../src/base/errors';
import { createHttpClient } from '../../src/http/client';
import { testIO, type TestIO } from '../../src/output/io';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';

// A fresh sandbox per test: each starts at the beginning of the lifecycle's cycle.
let sb: Sandbox;
beforeEach(async () => {
  sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 40 });
});
afterEach(() => sb.close());

/** Watches `-s confirmed` for `polls` polls, the sandbox making `steps` lifecycle changes between two. */
async function watchSandbox(
  output: OutputFormat,
  polls: number,
  steps = 1,
  filters: { status?: string } = { status: 'confirmed' },
): Promise<TestIO> {
  const tty = output === 'table';
  const io = testIO({ tty, color: tty, columns: 160 });
  const abort = new AbortController();
  const connection = { profile: 'default', baseUrl: new URL(sb.url), apiKey: sb.apiKey, keySource: 'env' as const };
  const globals = { profile: 'default', output, noColor: !tty, timeoutMs: 5000, retries: 0, debug: false, quiet: true, allowHttp: false };
  const client = createHttpClient({ connection, globals, io, signal: abort.signal });
  let clock = Date.parse('2026-01-05T08:00:00Z');
  let done = 0;
  const ctx: Context = {
    io,
    env: {},
    globals,
    signal: abort.signal,
    now: () => new Date(clock),
    async sleep(ms) {
      clock += ms;
      if (++done >= polls) {
        abort.abort();
        throw new InterruptedError();
      }
      for (let i = 0; i < steps; i++) sb.advance();
    },
    config: () => Promise.reject(new Error('not used')),
    connection: async () => connection,
    http: async () => client,
  };
  try {
    expect(await runBookingsWatch({ interval: 2, ...filters, scheme: 'service', retry: true }, ctx)).toBe(0);
  } finally {
    await client.close();
  }
  return io;
}

describe('bookings watch on the sandbox lifecycle', () => {
  it('in ndjson: added, changed and removed within one cycle of the lifecycle', async () => {
    const io = await watchSandbox('ndjson', 10);
    const events = io
      .out()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['added', 'changed', 'removed']));
    const changed = events.find((e) => e.type === 'changed');
    expect(Object.keys(changed.changes)).toEqual(expect.arrayContaining(['start', 'end']));
    for (const [old, now] of Object.values(changed.changes) as [string, string][]) expect(old).not.toBe(now);
    expect(events.find((e) => e.type === 'added').booking.status).toBe('confirmed');
  });

  it('on a terminal: a coloured line of each kind', async () => {
    const out = (await watchSandbox('table', 10)).out();
    expect(out).toMatch(/\x1b\[32madded\s*\x1b\[39m\s+bk_\w+ +.* · confirmed · /);
    expect(out).toMatch(/\x1b\[33mchanged\x1b\[39m\s+bk_\w+ +start: .* → /);
    expect(out).toMatch(/\x1b\[31mremoved\x1b\[39m\s+bk_\w+ +.* · confirmed\n/);
  });
});

describe('kinder polling', () => {
  it('asks again with If-None-Match: unchanged pages are answered 304 and cost no parse; a changed page is read', async () => {
    await sb.close();
    const statuses: string[] = [];
    sb = await startSandbox({
      port: 0,
      tickSeconds: 0,
      bookings: 50,
      log: (line) => void (line.includes(' GET ') && statuses.push(line.split(' ')[3]!)),
    });
    // 50 bookings: three pages of 20. Poll 1 reads them; before each later poll the lifecycle creates
    // a booking (on the last page), confirms it, moves it: only the last page is read again.
    const io = await watchSandbox('ndjson', 4, 1, {});
    const lines = statuses;
    expect(lines.slice(0, 3)).toEqual(['200', '200', '200']);
    expect(lines.slice(3)).toEqual(['304', '304', '200', '304', '304', '200', '304', '304', '200']);
    const events = io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events.map((e) => e.type)).toEqual(['added', 'changed', 'changed']);
  });
});

describe('the booking process', () => {
  it('prints events as the sandbox changes, and Ctrl-C ends it with exit 0', async () => {
    const live = await startSandbox({ port: 0, tickSeconds: 0.3, bookings: 20 });
    try {
      const child = spawn(process.execPath, [BIN, 'bookings', 'watch', '--interval', '2', '-o', 'ndjson'], {
        cwd: ROOT,
        env: cleanEnv({ BOOKING_BASE_URL: live.url, BOOKING_API_KEY: live.apiKey, BOOKING_CONFIG_DIR: '/nonexistent-booking-watch' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
      const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
      await new Promise<void>((resolve) =>
        child.stdout.setEncoding('utf8').on('data', (c: string) => {
          out += c;
          if (out.includes('"type":"added"')) resolve();
        }),
      );
      child.kill('SIGINT');
      const code = await closed;
      clearTimeout(timer);
      expect(err).toMatch(/^Watching \d+ bookings, every 2s; Ctrl-C to stop\.\n/);
      expect(code).toBe(0);
      for (const line of out.split('\n').filter(Boolean)) expect(JSON.parse(line)).toHaveProperty('at');
    } finally {
      await live.close();
    }
  }, 40_000);
});
