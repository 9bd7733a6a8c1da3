// Ctrl-C in the middle of forwarding loses nothing (issue 35): the real process, a receiver that
// takes two deliveries and never answers the third. watch ends with exit 0 (a --once run, a batch, with
// 130), its state file keeps the deliveries not answered, and the next run sends them, starting with
// the one cut short (same id).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { BIN, cleanEnv } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { interruptWhenBusy } from '../helpers/interrupt';
import { startReceiver, type Received } from '../helpers/receiver';

let sb: Sandbox;
let dir: string;
beforeEach(async () => {
  sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 5 });
  dir = mkdtempSync(join(tmpdir(), 'booking-watch-interrupt-'));
});
afterEach(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const ids = (rs: Received[]) => rs.map((r) => JSON.parse(r.body.toString()).id as string);

/** A --state saved from the sandbox, then `changes` lifecycle steps: the env, the state file, and --forward-to's flags for a URL. */
async function savedWatch(changes: number) {
  const env = { BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey, BOOKING_CONFIG_DIR: join(dir, 'config') };
  const state = join(dir, 'watch.state');
  const secret = join(dir, 'secret.txt');
  writeFileSync(secret, sb.secret);
  expect((await runMain(['bookings', 'watch', '--state', state, '--once'], { env })).code).toBe(0);
  for (let i = 0; i < changes; i++) sb.advance();
  const forward = (url: string) => ['--forward-to', `${url}/hooks`, '--secret-file', secret];
  return { env, state, forward };
}

/** `booking ARGS` as its own process: its exit code when it ends, and its stderr so far. */
function spawnBooking(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => stderr };
}

it('Ctrl-C while a delivery waits for its answer: exit 0, and the next run sends what was not answered', async () => {
  const { env, state, forward } = await savedWatch(14);
  const hanging = await startReceiver({ answer: (_request, n) => (n <= 2 ? 200 : undefined) });
  const good = await startReceiver();
  try {
    const { child, exited, stderr } = spawnBooking(['bookings', 'watch', '--state', state, ...forward(hanging.url), '-o', 'ndjson'], env);
    await hanging.arrived(3);
    const interrupted = Date.now();
    child.kill('SIGINT');
    expect(await exited, stderr()).toBe(0);
    expect(Date.now() - interrupted).toBeLessThan(1500);

    const rest = await runMain(['bookings', 'watch', '--state', state, '--once', ...forward(good.url)], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(rest.stderr).toMatch(/deliveries still owed/);
    const [first, second, cut] = ids(hanging.received);
    expect(ids(good.received)[0]).toBe(cut);
    expect(ids(good.received)).not.toContain(first);
    expect(ids(good.received)).not.toContain(second);
    expect(ids(good.received).length).toBeGreaterThan(3);

    // A run after that sends nothing new.
    const sent = good.received.length;
    expect((await runMain(['bookings', 'watch', '--state', state, '--once', ...forward(good.url)], { env })).code).toBe(0);
    expect(good.received).toHaveLength(sent);
  } finally {
    await hanging.close();
    await good.close();
  }
}, 30_000);

it('Ctrl-C of a --once run while a delivery waits: exit 130 (a batch cut short, not a catch-up), and the next run sends it', async () => {
  const { env, state, forward } = await savedWatch(4);
  const hanging = await startReceiver({ answer: () => undefined });
  const good = await startReceiver();
  try {
    const { child, exited, stderr } = spawnBooking(['bookings', 'watch', '--state', state, '--once', ...forward(hanging.url)], env);
    await hanging.arrived(1);
    child.kill('SIGINT');
    expect(await exited, stderr()).toBe(130);
    const rest = await runMain(['bookings', 'watch', '--state', state, '--once', ...forward(good.url)], { env });
    expect(rest.code, rest.stderr).toBe(0);
    expect(ids(good.received)[0]).toBe(ids(hanging.received)[0]);
  } finally {
    await hanging.close();
    await good.close();
  }
}, 30_000);

it('Ctrl-C while a big --state loads (100,000 bookings): exit 130 within a second, the file untouched', async () => {
  const env = { BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey, BOOKING_CONFIG_DIR: join(dir, 'config') };
  const state = join(dir, 'watch.state');
  expect((await runMain(['bookings', 'watch', '--state', state, '--once'], { env })).code).toBe(0);
  // The saved header and one entry, made into 100,000 bookings (~50 MB: a second or more to load on node 20).
  const [head, entry] = readFileSync(state, 'utf8').split('\n') as [string, string];
  const [, fp, whole, text] = JSON.parse(entry) as [string, string, number, string];
  const padded = text.replace(/}$/, `,"notes":"${'n'.repeat(400)}"}`);
  // Each line is JSON.stringify([uid, fp, whole, padded]): the part after the uid made once, the
  // file's bytes straight into one Buffer (stringifying 100,000 lines was 0.6 s of the test's CPU).
  const count = 100_000;
  const rest = Buffer.from(`${JSON.stringify([fp, whole, padded]).slice(1)}\n`);
  const header = Buffer.from(`${JSON.stringify({ ...JSON.parse(head), bookings: count, pending: 0, pages: 0 })}\n`);
  const room = Buffer.allocUnsafe(header.length + count * (rest.length + 20));
  let at = header.copy(room, 0);
  for (let i = 0; i < count; i++) {
    at += room.write(`["bk_big${i}",`, at, 'latin1');
    at += rest.copy(room, at);
  }
  const before = room.subarray(0, at);
  writeFileSync(state, before);
  let first: number | undefined;
  const r = await interruptWhenBusy(['bookings', 'watch', '--state', state, '--max-state', '512M', '--once'], {
    env,
    busy: () => performance.now() - (first ??= performance.now()) >= 100,
  });
  expect(r.code, r.stderr).toBe(130);
  // Interrupted while it loaded: it never got as far as saying what it resumed from.
  expect(r.stderr).not.toContain('Resuming from');
  expect(r.afterSigint).toBeLessThan(1_000);
  expect(readFileSync(state).equals(before)).toBe(true);
}, 30_000);
