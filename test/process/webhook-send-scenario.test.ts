// `webhook send --scenario`: ordered series for one booking with consistent ids and times, repeated
// (--duplicate), shuffled (--shuffle --seed), spaced (--delay); one line per delivery, a summary,
// exit 1 on any non-2xx; bad scenario files are exit 2 naming the step; --print-curl replays a
// capture byte for byte through a real curl.
import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { makeCtx, tempDirsPerTest, type KitOptions } from '../helpers/webhook-kit';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { testContext } from '../helpers/context';
import { until } from '../helpers/until';
import { skipNote } from '../helpers/skip';

const SECRET = 'whsec_scenario';
const sign = (body: Buffer | string) => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
let receiver: Receiver;
let status = 200;
beforeAll(async () => (receiver = await startReceiver({ answer: () => status })));
afterAll(() => receiver.close());
beforeEach(() => {
  receiver.received.splice(0);
  status = 200;
});
const newDir = tempDirsPerTest();

async function send(opts: Partial<SendOptions>, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'tsv', now: new Date('2026-11-25T12:00:00Z'), env: { BOOKING_WEBHOOK_SECRET: SECRET }, ...kit });
  const code = await runSend({ url: `${receiver.url}/hooks`, ...opts } as SendOptions, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}
type Payload = {
  id: string;
  event: string;
  created_at: string;
  data: { booking: Record<string, string>; previous?: Record<string, string> };
};
const payloads = () => receiver.received.map((g) => JSON.parse(g.body.toString()) as Payload);

describe('named scenarios', () => {
  it('lifecycle: created → confirmed → rescheduled → completed, one booking, fresh event ids, times in order', async () => {
    const r = await send({ scenario: 'lifecycle' });
    expect(r.code).toBe(0);
    const p = payloads();
    expect(p.map((x) => [x.event, x.data.booking.status])).toEqual([
      ['booking.created', 'pending'],
      ['booking.confirmed', 'confirmed'],
      ['booking.rescheduled', 'confirmed'],
      ['booking.completed', 'completed'],
    ]);
    expect(new Set(p.map((x) => x.data.booking.uid)).size).toBe(1);
    expect(new Set(p.map((x) => x.id)).size).toBe(4);
    const times = p.map((x) => x.created_at);
    expect([...times].sort()).toEqual(times);
    // The reschedule moves the meeting a day on; completed is sent at its end, which has passed.
    expect(p[2]!.data.previous!.start).toBe(p[1]!.data.booking.start);
    expect(Date.parse(p[2]!.data.booking.start) - Date.parse(p[1]!.data.booking.start)).toBe(86_400_000);
    expect(p[3]!.created_at).toBe(p[3]!.data.booking.end);
    expect(Date.parse(p[3]!.created_at)).toBeLessThan(Date.parse('2026-11-25T12:00:00Z'));
    for (const g of receiver.received) expect(g.headers['x-service-signature']).toBe(sign(g.body));
    // tsv: status, step, event, copy, ms, id (the table line's order)
    expect(
      r.out
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t').slice(0, 4)),
    ).toEqual([
      ['200', '1', 'booking.created', '1'],
      ['200', '2', 'booking.confirmed', '1'],
      ['200', '3', 'booking.rescheduled', '1'],
      ['200', '4', 'booking.completed', '1'],
    ]);
    expect(r.err).toBe('lifecycle: 4 deliveries (4 steps): 4 answered 2xx.\n');
  });

  it.each([
    ['cancel', ['booking.created', 'booking.cancelled']],
    ['reschedule-twice', ['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.rescheduled']],
    ['no-show', ['booking.created', 'booking.confirmed', 'booking.completed', 'no_show.flagged']],
  ])('%s', async (scenario, events) => {
    expect((await send({ scenario })).code).toBe(0);
    expect(payloads().map((x) => x.event)).toEqual(events);
  });

  it('no-show: completed at the meeting end, the no-show flagged 15 minutes after it', async () => {
    expect((await send({ scenario: 'no-show' })).code).toBe(0);
    const p = payloads();
    expect(p.map((x) => x.event)).toEqual(['booking.created', 'booking.confirmed', 'booking.completed', 'no_show.flagged']);
    expect(p[2]!.created_at).toBe(p[2]!.data.booking.end);
    expect(Date.parse(p[3]!.created_at) - Date.parse(p[2]!.data.booking.end)).toBe(15 * 60_000);
  });

  it('--duplicate 2: each delivery twice, byte-identical with the same signature, the copy right after', async () => {
    const r = await send({ scenario: 'cancel', duplicate: 2 }, { output: 'table' });
    expect(r.code).toBe(0);
    const g = receiver.received;
    expect(g).toHaveLength(4);
    expect(g[1]!.body.equals(g[0]!.body)).toBe(true);
    expect(g[1]!.headers['x-service-signature']).toBe(g[0]!.headers['x-service-signature']);
    expect(g[2]!.body.equals(g[0]!.body)).toBe(false);
    expect(r.out).toMatch(/^✓ 200 {2}1\/2 {2}booking\.created {2}copy 2\/2 {2}\d+ ms {2}evt_[0-9a-f]{20}$/m);
    expect(r.err).toContain('4 deliveries (2 steps × 2)');
  });

  it('--shuffle --seed S: out of order, the same order again with the same seed', async () => {
    const order = async (seed: string) => {
      receiver.received.splice(0);
      const r = await send({ scenario: 'lifecycle', duplicate: 2, shuffle: true, seed });
      expect(r.err).toContain(`shuffled (--seed ${seed} repeats the order)`);
      return r.out
        .split('\n')
        .filter(Boolean)
        .map((l) => {
          const [, step, event, copy] = l.split('\t');
          return `${event} ${step} ${copy}`;
        });
    };
    const a = await order('7');
    expect(await order('7')).toEqual(a);
    expect(a).not.toEqual([...a].sort((x, y) => x.split(' ')[1]!.localeCompare(y.split(' ')[1]!)));
  });

  it('a non-2xx answer to any delivery: every delivery still sent, exit 1, counted in the summary', async () => {
    status = 500;
    const r = await send({ scenario: 'cancel' });
    expect(r.code).toBe(1);
    expect(receiver.received).toHaveLength(2);
    expect(r.err).toBe('cancel: 2 deliveries (2 steps): 0 answered 2xx, 2 did not.\n');
  });

  it('--delay spaces the deliveries; Ctrl-C during the wait is exit 130 at once, nothing more sent', async () => {
    const abort = new AbortController();
    const started = Date.now();
    const run = send({ scenario: 'lifecycle', delay: 60_000 }, { signal: abort.signal });
    await until(() => receiver.received.length >= 1, 'the first delivery');
    abort.abort();
    await expect(run).rejects.toMatchObject({ exitCode: 130 });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(receiver.received).toHaveLength(1);
  });
});

describe('the shaping flags', () => {
  const shaped = async (globals: { jq?: string; fields?: string[] }) => {
    const ctx = testContext({ env: { BOOKING_WEBHOOK_SECRET: SECRET }, globals });
    const code = await runSend({ url: `${receiver.url}/hooks`, scenario: 'cancel' } as SendOptions, ctx).catch(
      (e: { exitCode?: number }) => e.exitCode,
    );
    return { code, out: ctx.io.out() };
  };

  it('--jq and --fields apply to each delivery of a series, as to every record', async () => {
    expect(await shaped({ jq: '.[].event' })).toEqual({ code: 0, out: 'booking.created\nbooking.cancelled\n' });
    expect((await shaped({ fields: ['status', 'event'] })).out).toBe('200\tbooking.created\n200\tbooking.cancelled\n');
  });

  it('a --fields typo is exit 2 before anything is sent', async () => {
    receiver.received.splice(0);
    expect((await shaped({ fields: ['nosuch'] })).code).toBe(2);
    expect(receiver.received).toHaveLength(0);
  });
});

describe('scenario files', () => {
  it('a JSON list of steps with --set overrides per step, applied after the command line --set', async () => {
    const d = newDir();
    writeFileSync(
      d.path('steps.json'),
      JSON.stringify([
        'booking.created',
        { event: 'booking.cancelled', set: ['data.booking.reason=no longer needed', 'data.booking.seats=12345678901234567890'] },
      ]),
    );
    const r = await send({ scenario: d.path('steps.json'), set: ['data.booking.title=Intro'] });
    expect(r.code).toBe(0);
    const bodies = receiver.received.map((g) => g.body.toString());
    expect(payloads().map((x) => [x.event, x.data.booking.title, x.data.booking.reason])).toEqual([
      ['booking.created', 'Intro', undefined],
      ['booking.cancelled', 'Intro', 'no longer needed'],
    ]);
    expect(bodies[1]).toContain('"seats":12345678901234567890');
  });

  it.each([
    ['not JSON', '[booking.created]', /^--scenario .*steps\.json is not JSON: /],
    ['not a list', '{"event":"booking.created"}', /steps\.json: expected a JSON list of steps/],
    [
      'an unknown event',
      '["booking.created", "booking.deleted"]',
      /steps\.json, step 2: unknown event "booking\.deleted": one of booking\.created/,
    ],
    [
      'a path that cannot hold a value',
      '["booking.created", {"event": "booking.cancelled", "set": ["data.booking.status.x=1"]}]',
      /steps\.json, step 2 \(booking\.cancelled\): --set "data\.booking\.status\.x=1": data\.booking\.status is a string/,
    ],
    [
      'a misspelt path',
      '[{"event": "booking.created", "set": ["data.boking.status=x"]}]',
      /step 1 \(booking\.created\): --set "data\.boking\.status=x": data has no "boking"/,
    ],
    ['a bad set', '[{"event": "booking.created", "set": "x=1"}]', /step 1: "set" is a list of "PATH=VALUE" texts/],
  ])('%s: exit 2 naming the step, nothing sent', async (_name, text, message) => {
    const d = newDir();
    writeFileSync(d.path('steps.json'), text);
    await expect(send({ scenario: d.path('steps.json') })).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
    expect(receiver.received).toHaveLength(0);
  });

  it('an unknown name, or --event beside --scenario: exit 2', async () => {
    await expect(send({ scenario: 'lifecycel' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('is not a scenario (lifecycle, cancel, reschedule-twice, no-show)'),
    });
    await expect(send({ scenario: 'cancel', event: 'booking.created' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(send({ scenario: 'cancel', seed: '7' })).rejects.toMatchObject({
      exitCode: 2,
      message: '--seed orders a --shuffle: give --shuffle too.',
    });
    await expect(send({ event: 'booking.created', duplicate: 2 })).rejects.toMatchObject({
      exitCode: 2,
      message: '--duplicate is used with --scenario NAME|FILE only.',
    });
  });
});

const curl = spawnSync('curl', ['--version']).status === 0;

describe('--print-curl', () => {
  // Every byte value in the body, a quote, a percent sign and a backslash among them.
  const body = Buffer.concat([Buffer.from(`-{"id":"evt_1","note":"it's 100% \\\\ done"}\r\n`), Buffer.from([...Array(256).keys()])]);
  const capture = Buffer.concat([
    Buffer.from(
      `POST /hooks HTTP/1.1\r\nHost: example\r\nContent-Type: application/json; charset=utf-8\r\nX-Trace: a'b "c" $HOME \`x\`\r\nX-Service-Event: booking.created\r\nX-Service-Signature: ${sign(body)}\r\nContent-Length: ${body.length}\r\n\r\n`,
    ),
    body,
  ]);

  it('refuses the shaping flags: it prints a shell command, not records (exit 2)', async () => {
    const d = newDir();
    writeFileSync(d.path('cap.http'), capture);
    const r = await send({ request: d.path('cap.http'), printCurl: true }, { env: {}, output: 'json' }).catch(
      (e: { exitCode: number; message: string }) => e,
    );
    expect(r).toMatchObject({ exitCode: 2, message: expect.stringContaining('--print-curl') });
  });

  it('prints a command of printable ASCII only, and sends nothing', async () => {
    const d = newDir();
    writeFileSync(d.path('cap.http'), capture);
    const r = await send({ request: d.path('cap.http'), printCurl: true }, { env: {}, output: undefined });
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^printf '\\055\{"id".*' \| curl -sS --data-binary @- -H 'Content-Type: application\/json; charset=utf-8' -H 'X-Trace: a'\\''b "c" \$HOME `x`' /,
    );
    expect(r.out).toMatch(/^[\x20-\x7e]*\n$/);
    expect(receiver.received).toHaveLength(0);
  });

  it.skipIf(!curl)(
    skipNote("run by a real curl, it sends the body byte for byte with the capture's headers", curl ? undefined : 'curl not installed'),
    async () => {
      const d = newDir();
      writeFileSync(d.path('cap.http'), capture);
      const r = await send({ request: d.path('cap.http'), printCurl: true }, { env: {}, output: undefined });
      // Run by sh, as a user would paste it; async, so that the receiver in this process can answer.
      await new Promise<void>((resolve, reject) => {
        const child = spawn('sh', ['-c', r.out], { stdio: 'ignore' });
        child.on('exit', (code: number) => (code === 0 ? resolve() : reject(new Error(`curl exited ${code}`))));
      });
      const g = receiver.received[0]!;
      expect(g.body.equals(body)).toBe(true);
      expect(g.headers).toMatchObject({
        'content-type': 'application/json; charset=utf-8',
        'x-trace': 'a\'b "c" $HOME `x`',
        'x-service-event': 'booking.created',
        'x-service-signature': sign(body),
      });
      expect(g.headers).not.toHaveProperty('accept');
      expect(g.headers).not.toHaveProperty('user-agent');
    },
  );
});
