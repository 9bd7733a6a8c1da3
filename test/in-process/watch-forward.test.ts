// Issue 35's "done when", in-process against the sandbox: a receiver that was down misses the
// lifecycle's deliveries; `bookings watch --state FILE --once --forward-to` rebuilds them from the
// list: every change once, in order per booking, signed (webhook verify accepts the captures), marked
// rebuilt, with ids made from uid + change; a second run sends nothing; a receiver that fails keeps
// the changes in the state for the next run, which sends the same ids.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { signatureHeader } from '../../src/webhook/signature';
import { runMain } from '../helpers/in-process';
import { saveCaptures, startReceiver, type Received, type Receiver } from '../helpers/receiver';

let sb: Sandbox;
let truth: Receiver;
let dir: string;
let secretFile: string;
beforeEach(async () => {
  truth = await startReceiver();
  sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 12, webhookUrls: [`${truth.url}/hooks`], retryDelaysMs: [] });
  dir = mkdtempSync(join(tmpdir(), 'booking-watch-forward-'));
  secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, `${sb.secret}\n`);
});
afterEach(async () => {
  await sb.close();
  await truth.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey, BOOKING_CONFIG_DIR: join(dir, 'config') });
const watchOnce = (state: string, ...more: string[]) => runMain(['bookings', 'watch', '--state', state, '--once', ...more], { env: env() });
const forwardTo = (r: Receiver) => ['--forward-to', `${r.url}/hooks`, '--secret-file', secretFile, '--retry-delays', 'none'];

/** [event, uid] of each delivery, as the service sent it or watch rebuilt it. */
const pairs = (received: Received[]) =>
  received.map((r) => {
    const body = JSON.parse(r.body.toString()) as { event: string; data: { booking: { uid: string } } };
    return [body.event, body.data.booking.uid];
  });

/** The deliveries of each booking, in the order they came. */
function perBooking(list: string[][]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [event, uid] of list) (out[uid!] ??= []).push(event!);
  return out;
}

describe('bookings watch --state --forward-to: the deliveries a stopped receiver missed', () => {
  it('re-delivers every change once, in order per booking, signed and marked; a second run sends nothing', async () => {
    const state = join(dir, 'watch.state');
    const first = await watchOnce(state);
    expect(first).toMatchObject({ code: 0, stdout: '' });
    expect(first.stderr).toContain(`Saved 12 bookings to ${state}`);

    // The receiver is down while the lifecycle makes two whole cycles of changes, and watch polls
    // after each: every delivery fails, and waits in the state file.
    const down = await startReceiver();
    await down.close();
    const reports: string[] = [];
    for (let i = 0; i < 14; i++) {
      sb.advance();
      const polled = await watchOnce(state, ...forwardTo(down), '-o', 'ndjson');
      expect(polled.code).toBe(1);
      expect(polled.stderr, polled.stderr).toMatch(/ECONNREFUSED/);
      expect(polled.stderr).toMatch(
        /\d+ deliver(y|ies) to --forward-to not answered 2xx\.\n.*watch\.state keeps (it|them): the next run sends (it|them) first\.\n$/,
      );
      reports.push(polled.stdout);
    }
    await sb.deliveriesSettled();

    const receiver = await startReceiver();
    try {
      const run = await watchOnce(state, ...forwardTo(receiver), '-o', 'ndjson');
      expect(run.code, run.stderr).toBe(0);
      expect(receiver.received.map((r) => JSON.parse(r.body.toString()).event)).toEqual(
        truth.received.map((r) => JSON.parse(r.body.toString()).event),
      );
      expect(perBooking(pairs(receiver.received))).toEqual(perBooking(pairs(truth.received)));
      expect(receiver.received).toHaveLength(truth.received.length);
      for (const r of receiver.received) {
        expect(r.headers['x-service-signature']).toBe(signatureHeader(sb.secret, r.body));
        expect(r.headers['x-booking-rebuilt']).toBe('watch');
        expect(r.headers['x-service-event']).toBe(JSON.parse(r.body.toString()).event);
        expect(JSON.parse(r.body.toString()).id).toMatch(/^evt_rebuilt_[0-9a-f]{24}$/);
      }
      // The rescheduled one carries the old time, as the service's does.
      const moved = receiver.received.map((r) => JSON.parse(r.body.toString())).find((b) => b.event === 'booking.rescheduled');
      const sent = truth.received.map((r) => JSON.parse(r.body.toString())).find((b) => b.event === 'booking.rescheduled');
      expect(moved.data.previous).toEqual(sent.data.previous);
      // The reports on stdout: what each poll saw change.
      const types = reports
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).type);
      expect(types).toContain('added');
      expect(types).toContain('changed');

      // Captures of the rebuilt deliveries verify as the service's would.
      const captures = join(dir, 'captures');
      saveCaptures(captures, receiver.received);
      const verified = await runMain(['webhook', 'verify', '--request', captures, '--secret-file', secretFile, '-o', 'ndjson'], {
        env: env(),
      });
      expect(verified.code, verified.stderr).toBe(0);
      expect(verified.stdout.trim().split('\n')).toHaveLength(receiver.received.length);

      const again = await watchOnce(state, ...forwardTo(receiver));
      expect(again).toMatchObject({ code: 0, stdout: '' });
      expect(receiver.received).toHaveLength(truth.received.length);
    } finally {
      await receiver.close();
    }
  });

  it('a receiver that fails keeps the changes in the state: the next run sends them again, with the same ids', async () => {
    const state = join(dir, 'watch.state');
    await watchOnce(state);
    // Created, confirmed and moved between two polls: one poll sees a new booking, confirmed (the
    // move is merged into it: the list has no old time to tell).
    for (let i = 0; i < 3; i++) sb.advance();
    const failing = await startReceiver({ answer: 500 });
    const good = await startReceiver();
    try {
      const failed = await watchOnce(state, ...forwardTo(failing));
      expect(failed.code).toBe(1);
      expect(failed.stderr).toContain('forwarding booking.created');
      expect(failed.stderr).toMatch(/2 deliveries to --forward-to not answered 2xx\.\n.*watch\.state keeps them/);
      const before = readFileSync(state, 'utf8');
      const retried = await watchOnce(state, ...forwardTo(good));
      expect(retried.code, retried.stderr).toBe(0);
      expect(readFileSync(state, 'utf8')).not.toBe(before);
      const ids = (rs: Received[]) => rs.map((r) => JSON.parse(r.body.toString()).id);
      // Each failing booking's first delivery was tried (and refused); the good receiver got them all.
      expect(ids(good.received)).toEqual(expect.arrayContaining(ids(failing.received)));
      expect(pairs(good.received).map(([e]) => e)).toEqual(['booking.created', 'booking.confirmed']);
      // --no-retry moves on whatever the answer.
      sb.advance();
      const lossy = await watchOnce(state, '--forward-to', `${failing.url}/hooks`, '--secret-file', secretFile, '--no-retry');
      expect(lossy.code).toBe(0);
      const after = await watchOnce(state, ...forwardTo(good));
      expect(after.code).toBe(0);
      expect(good.received).toHaveLength(2);
    } finally {
      await failing.close();
      await good.close();
    }
  });
});
