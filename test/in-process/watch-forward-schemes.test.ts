// `bookings watch --forward-to --scheme X` (issue 35 item 2): the rebuilt deliveries signed and shaped
// as X's sender makes them. For each scheme, the same changes forwarded from the same state: the
// receiver's captures verify with `webhook verify --request DIR` (the scheme recognised by its headers,
// no --scheme), the body has X's event field (Cal.com's names), each keeps X-Booking-Rebuilt and its
// deterministic id (Standard Webhooks' webhook-id is that id); a retry of a timestamped scheme is
// signed afresh; a whsec_ secret that is not base64 is exit 2 before anything is asked or sent.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { runMain } from '../helpers/in-process';
import { saveCaptures, startReceiver, type Received } from '../helpers/receiver';

// base64 after whsec_: a key in every scheme (Standard Webhooks decodes it, the others use the text).
const SECRET = 'whsec_c2NoZW1lcy10ZXN0';
const CAL_EVENTS = [
  'BOOKING_REQUESTED',
  'BOOKING_CREATED',
  'BOOKING_RESCHEDULED',
  'BOOKING_CANCELLED',
  'MEETING_ENDED',
  'BOOKING_NO_SHOW_UPDATED',
];
const EVENT_FIELD: Record<string, string> = { service: 'event', cal: 'triggerEvent', calendly: 'event', stripe: 'type', standard: 'type' };

let sb: Sandbox;
let dir: string;
let secretFile: string;
/** The snapshot before the changes: each scheme's run starts from a copy of it. */
let snapshot: string;
/** The ids the service's scheme sent, in order: every scheme sends the same. */
let serviceIds: string[] | undefined;

beforeAll(async () => {
  sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 12, retryDelaysMs: [] });
  dir = mkdtempSync(join(tmpdir(), 'booking-watch-schemes-'));
  secretFile = join(dir, 'secret.txt');
  writeFileSync(secretFile, `${SECRET}\n`);
  snapshot = join(dir, 'snapshot.state');
  const first = await watchOnce(snapshot);
  expect(first.code, first.stderr).toBe(0);
  for (let i = 0; i < 6; i++) sb.advance();
});
afterAll(async () => {
  await sb.close();
  rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey, BOOKING_CONFIG_DIR: join(dir, 'config') });
const watchOnce = (state: string, ...more: string[]) => runMain(['bookings', 'watch', '--state', state, '--once', ...more], { env: env() });
const bodyOf = (r: Received) => JSON.parse(r.body.toString()) as Record<string, unknown> & { id: string };

/** A copy of the snapshot, for one run. */
function stateCopy(name: string): string {
  const state = join(dir, `${name}.state`);
  copyFileSync(snapshot, state);
  return state;
}

describe('bookings watch --forward-to --scheme', () => {
  for (const scheme of ['service', 'cal', 'calendly', 'stripe', 'standard']) {
    it(`--scheme ${scheme}: the rebuilt deliveries verify as ${scheme}'s, in its shape, with their ids`, async () => {
      const receiver = await startReceiver();
      try {
        const args = ['--forward-to', `${receiver.url}/hooks`, '--secret-file', secretFile, '--retry-delays', 'none', '--scheme', scheme];
        const run = await watchOnce(stateCopy(scheme), ...args);
        expect(run.code, run.stderr).toBe(0);
        expect(receiver.received.length).toBeGreaterThan(2);
        const bodies = receiver.received.map(bodyOf);
        const field = EVENT_FIELD[scheme]!;
        for (const [i, r] of receiver.received.entries()) {
          expect(r.headers['x-booking-rebuilt']).toBe('watch');
          expect(bodies[i]!.id).toMatch(/^evt_rebuilt_[0-9a-f]{24}$/);
          expect(typeof bodies[i]![field]).toBe('string');
          if (field !== 'event') expect(bodies[i]).not.toHaveProperty('event');
          if (scheme === 'cal') expect(CAL_EVENTS).toContain(bodies[i]![field]);
          else expect(bodies[i]![field]).toMatch(/^(booking|no_show)\./);
          if (scheme === 'standard') expect(r.headers['webhook-id']).toBe(bodies[i]!.id);
          if (scheme !== 'service') expect(r.headers).not.toHaveProperty('x-service-signature');
        }
        const ids = bodies.map((b) => b.id);
        if (scheme === 'service') serviceIds = ids;
        else if (serviceIds) expect(ids).toEqual(serviceIds);

        const captures = join(dir, `captures-${scheme}`);
        saveCaptures(captures, receiver.received);
        const verified = await runMain(['webhook', 'verify', '--request', captures, '--secret-file', secretFile, '-o', 'json'], {
          env: env(),
        });
        expect(verified.code, verified.stdout + verified.stderr).toBe(0);
        const verdicts = JSON.parse(verified.stdout) as { authentic: boolean; scheme: string }[];
        // The seed's own scheme is verify's default: its verdicts name no scheme; every other one is named.
        const named = verdicts.map((v) => [v.authentic, v.scheme ?? (scheme === 'service' ? 'service' : undefined)]);
        expect(named).toEqual(Array(receiver.received.length).fill([true, scheme]));
      } finally {
        await receiver.close();
      }
    });
  }

  it('a timestamped scheme signs each attempt afresh: the retry has a newer timestamp, the same body and id', async () => {
    const receiver = await startReceiver({ answer: (_r, n) => (n === 1 ? 500 : 200) });
    try {
      const args = ['--forward-to', `${receiver.url}/hooks`, '--secret-file', secretFile, '--retry-delays', '1', '--scheme', 'standard'];
      const run = await watchOnce(stateCopy('retried'), ...args);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toMatch(/warning: forwarding .* 500 \(attempt 1\/2\), retrying in 1s/);
      const [failed, retried] = receiver.received;
      expect(retried!.body).toEqual(failed!.body);
      expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
      expect(Number(retried!.headers['webhook-timestamp'])).toBeGreaterThan(Number(failed!.headers['webhook-timestamp']));
      const captures = join(dir, 'captures-retried');
      saveCaptures(captures, [retried!]);
      const verified = await runMain(['webhook', 'verify', '--request', captures, '--secret-file', secretFile], { env: env() });
      expect(verified.stdout).toMatch(/^authentic\t.*\tstandard\n$/);
    } finally {
      await receiver.close();
    }
  });

  it('--scheme standard with a whsec_ secret that is not base64: exit 2 at start, one line, nothing sent or saved', async () => {
    const receiver = await startReceiver();
    try {
      const bad = join(dir, 'bad-secret.txt');
      writeFileSync(bad, 'whsec_sandbox\n');
      const state = stateCopy('bad');
      const before = readFileSync(state);
      const run = await watchOnce(state, '--forward-to', `${receiver.url}/hooks`, '--secret-file', bad, '--scheme', 'standard');
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^[^\n]*not a Standard Webhooks secret[^\n]*base64[^\n]*\n$/);
      expect(receiver.received).toHaveLength(0);
      expect(readFileSync(state)).toEqual(before);
    } finally {
      await receiver.close();
    }
  });

  it('--scheme without --forward-to: exit 2, as its other companions', async () => {
    const run = await watchOnce(stateCopy('stray'), '--scheme', 'stripe');
    expect(run).toMatchObject({ code: 2, stdout: '' });
    expect(run.stderr).toMatch(/^error: --scheme is for --forward-to URL: without it nothing is forwarded\.\n$/);
  });
});
