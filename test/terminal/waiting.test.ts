// Never silent while waiting, on a real pseudo-terminal (util-linux `script`): a request with no
// answer after about a second says so on stderr (what, where, how long, how to stop), the line is
// cleared when the answer comes, the pager starts only with the first bytes of output, and Ctrl-C
// before them leaves no pager screen behind. Against loopback servers that accept and never answer,
// or answer late.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { runCliTty } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

const dir = mkdtempSync(join(tmpdir(), 'booking-waiting-'));
const sockets = new Set<Socket>();
let silent: Server;
let silentUrl: string;
let late: { url: string; close(): Promise<void> };
let lateMs = 1500;

beforeAll(async () => {
  // Accepts, reads, never answers.
  silent = createServer((socket) => {
    sockets.add(socket);
    socket.on('data', () => {});
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  late = await serve((_req, res) => {
    setTimeout(
      () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"data":[{"uid":"bk_late","title":"Late one"}]}'),
      lateMs,
    );
  });
  // A pager that leaves a mark when it starts, then shows what it is given.
  writeFileSync(join(dir, 'pager'), `#!/bin/sh\necho started > "${join(dir, 'pager-started')}"\nexec cat\n`);
  chmodSync(join(dir, 'pager'), 0o755);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => silent.close(resolve));
  await late.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = (base: string, extra: Record<string, string> = {}) => ({
  BOOKING_CONFIG_DIR: join(dir, 'config'),
  BOOKING_BASE_URL: base,
  BOOKING_API_KEY: 'sk_test_waiting',
  ...extra,
});
const NOTE = /Waiting for 127\.0\.0\.1:\d+ \(1s, Ctrl-C to stop\): GET \/api\/v1\/me/;

describe('a request with no answer, on a terminal', () => {
  it('whoami: the waiting note after about a second; Ctrl-C clears it and exits 130', async () => {
    const r = await runCliTty(['whoami'], { env: env(silentUrl), answers: [{ after: 'Ctrl-C to stop', text: '\x03' }] });
    expect(r.code).toBe(130);
    expect(r.output).toMatch(NOTE);
    // The note's line is cleared before the next line is written: the screen keeps no stale note.
    const after = r.output.slice(r.output.search(NOTE));
    expect(after).toMatch(/\r\x1b\[2Kerror: interrupted\n$/);
  });

  it('webhook send to a receiver that never answers: the note names the POST; Ctrl-C exits 130', async () => {
    const r = await runCliTty(['webhook', 'send', `${silentUrl}/hooks`, '--event', 'booking.created'], {
      env: env(silentUrl, { BOOKING_WEBHOOK_SECRET: 'whsec_waiting' }),
      answers: [{ after: 'Ctrl-C to stop', text: '\x03' }],
    });
    expect(r.code).toBe(130);
    // (The terminal echoes the Ctrl-C as ^C before the line is cleared.)
    expect(r.output).toMatch(/Waiting for 127\.0\.0\.1:\d+ \(1s, Ctrl-C to stop\): POST \/hooks(\^C)?\r\x1b\[2Kerror: interrupted\n$/);
  });

  it('bookings list with a pager: no pager before any output, so Ctrl-C leaves a clean screen', async () => {
    const marker = join(dir, 'pager-started');
    rmSync(marker, { force: true });
    // 60 columns: the line is cut at the terminal's width, and what is cut is the request, never the way out.
    const r = await runCliTty(['bookings', 'list'], {
      columns: 60,
      env: env(silentUrl, { BOOKING_PAGER: join(dir, 'pager') }),
      answers: [{ after: 'Ctrl-C to stop', text: '\x03' }],
    });
    expect(r.code).toBe(130);
    expect(r.output).toMatch(/Waiting for 127\.0\.0\.1:\d+ \(\d+s, Ctrl-C to stop\): GET \/api/);
    expect(existsSync(marker)).toBe(false);
    expect(r.output).not.toMatch(/skipping|\(END\)|\x07/);
  });

  it('an answer that comes late: the note, cleared, then the rows through the pager it started then', async () => {
    const marker = join(dir, 'pager-started');
    rmSync(marker, { force: true });
    lateMs = 1500;
    const r = await runCliTty(['bookings', 'list', '--fields', 'uid,title'], { env: env(late.url, { BOOKING_PAGER: join(dir, 'pager') }) });
    expect(r.code, r.output).toBe(0);
    const note = r.output.search(/Waiting for 127\.0\.0\.1:\d+ \(1s, Ctrl-C to stop\): GET \/api\/v1\/bookings/);
    expect(note, r.output).toBeGreaterThanOrEqual(0);
    expect(r.output.slice(note)).toMatch(/Ctrl-C to stop\): GET [^\r]*\r\x1b\[2K[\s\S]*bk_late\s+Late one/);
    expect(existsSync(marker)).toBe(true);
  });
});

describe('a wait before a retry, on a terminal', () => {
  it('429 with Retry-After: the note says what came back and counts down, cleared before the answer is shown', async () => {
    let asked = 0;
    const limited = await serve((_req, res) => {
      if (asked++ === 0) res.writeHead(429, { 'retry-after': '2' }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"name":"Ada"}');
    });
    try {
      const wide = await runMain(['whoami', '-o', 'json'], { tty: true, columns: 160, env: env(limited.url, { BOOKING_PAGER: '' }) });
      expect(wide.code, wide.stderr).toBe(0);
      expect(wide.stderr).toMatch(/Retry 1\/3 in 2s: GET \/api\/v1\/me got 429 Too Many Requests \(127\.0\.0\.1:\d+\); Ctrl-C to stop/);
      expect(wide.stderr).toMatch(/Retry 1\/3 in 1s: [^\r]*; Ctrl-C to stop\r\x1b\[2K/);
      // On 80 columns the line is cut at the end: the countdown and what came back stay.
      asked = 0;
      const r = await runMain(['whoami', '-o', 'json'], { tty: true, columns: 80, env: env(limited.url, { BOOKING_PAGER: '' }) });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('Retry 1/3 in 2s: GET /api/v1/me got 429 Too Many Requests');
      expect(r.stdout).toContain('"Ada"');
      asked = 0;
      const piped = await runMain(['whoami', '-o', 'json'], { env: env(limited.url) });
      expect(piped).toMatchObject({ code: 0, stderr: '' });
    } finally {
      await limited.close();
    }
  });
});

describe('with --debug', () => {
  it("the answer's debug line starts on a line of its own, after the note is cleared", async () => {
    lateMs = 1500;
    const r = await runCliTty(['bookings', 'list', '--debug', '--fields', 'uid'], { env: env(late.url) });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toMatch(/Ctrl-C to stop\): GET [^\r]*\r\x1b\[2K< 200 /);
  });
});

describe('where no one is watching a terminal', () => {
  it('piped, or with -q: no note, however late the answer', async () => {
    lateMs = 1200;
    const piped = await runMain(['bookings', 'list'], { env: env(late.url) });
    expect(piped).toMatchObject({ code: 0, stderr: '' });
    const quiet = await runMain(['bookings', 'list', '-q'], { tty: true, env: env(late.url, { BOOKING_PAGER: '' }) });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
  });
});
