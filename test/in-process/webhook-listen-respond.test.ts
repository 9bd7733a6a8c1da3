// `webhook listen` as a receiver under test conditions (issue 21 item 2) and under attack (issue 23):
// --respond/--respond-after with the sandbox's retry schedule shown as attempts with their spacing,
// repeats of a delivery recognised, a forward to itself refused and a loop through another hop cut,
// and a slow sender that cannot hold the in-flight budget.
import { connect } from 'node:net';
import { basename } from 'node:path';
import { readdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runListen } from '../../src/commands/webhook/listen/listen';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { startSandbox } from '../../src/sandbox/server';
import { freePort } from '../helpers/doc-examples';
import { makeCtx, tempDirsPerTest, type KitOptions } from '../helpers/webhook-kit';
import { LISTEN_SECRET, startListen } from '../helpers/listen-kit';
import { until } from '../helpers/until';

const newDir = tempDirsPerTest();

async function send(opts: Partial<SendOptions> & { url: string }, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'tsv', env: { BOOKING_WEBHOOK_SECRET: LISTEN_SECRET }, ...kit });
  const code = await runSend({ ...opts } as SendOptions, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

interface Line {
  type: string;
  event: string;
  authentic: boolean;
  capture: string | null;
  status?: number;
  attempt?: number;
  first_capture?: string | null;
  since_previous_ms?: number;
}
/** The delivery lines (the first record, `{"type":"listening"}`, says where listen is). */
const jsonLines = (out: string) =>
  out
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line & { type: string })
    .filter((l) => l.type !== 'listening');

describe('retries made visible', () => {
  it('listen --respond 500 --respond-after 2 with the sandbox sending: three attempts with their spacing, the third saved as authentic', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir, respond: 500, respondAfter: 2 }, { output: 'ndjson' });
    const sb = await startSandbox({
      port: 0,
      tickSeconds: 0,
      bookings: 1,
      secret: LISTEN_SECRET,
      webhookUrls: [l.url],
      retryDelaysMs: [150, 300],
    });
    try {
      sb.advance();
      await sb.deliveriesSettled();
    } finally {
      await sb.close();
    }
    await l.stop();
    const lines = jsonLines(l.out());
    expect(lines.map((x) => [x.event, x.authentic, x.status, x.attempt])).toEqual([
      ['booking.created', true, 500, 1],
      ['booking.created', true, 500, 2],
      ['booking.created', true, 200, 3],
    ]);
    expect(lines[1]!.first_capture).toBe(lines[0]!.capture);
    expect(lines[2]!.first_capture).toBe(lines[0]!.capture);
    // The sandbox's schedule, seen from the receiver: 150 ms, then 300 ms (and whatever the load adds).
    expect(lines[1]!.since_previous_ms).toBeGreaterThanOrEqual(140);
    expect(lines[2]!.since_previous_ms).toBeGreaterThanOrEqual(290);
    // Every attempt was saved; the third verifies as authentic.
    expect(readdirSync(d.dir).filter((f) => f.endsWith('.http'))).toHaveLength(3);
    const ctx = makeCtx({ output: 'json' });
    expect(await runVerify({ request: [lines[2]!.capture!], secret: LISTEN_SECRET }, ctx)).toBe(0);
    expect(JSON.parse(ctx.io.out())).toMatchObject([{ authentic: true, event: 'booking.created' }]);
  });

  it('on a terminal: "attempt 2 of <first capture>, +N ms" and the status answered', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir, respond: 503, respondAfter: 1 }, { output: 'table' });
    expect((await send({ url: l.url, scenario: 'cancel', duplicate: 2 })).code).toBe(1);
    await l.stop();
    const lines = l.out().trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    const first = basename(readdirSync(d.dir).sort()[0]!);
    expect(lines[0]).toMatch(/booking\.created {2}✓ authentic {2}bk_\w+ {2}→ 503$/);
    expect(lines[1]).toMatch(
      new RegExp(`booking\\.created {2}✓ authentic {2}bk_\\w+ {2}→ 200 {2}attempt 2 of ${first.replace(/\./g, '\\.')}, \\+\\d+ ms$`),
    );
    expect(l.err()).toContain('Authentic deliveries are answered 503 for the first 1 attempts of each, then 200.');
  });

  it('the same event id with other bytes is a repeat too; --respond-after needs --respond', async () => {
    const l = await startListen({ save: false }, { output: 'ndjson' });
    const d = newDir();
    writeFileSync(d.path('a.json'), '{"id":"evt_same","n":1}');
    writeFileSync(d.path('b.json'), '{"id":"evt_same","n":2}');
    await send({ url: l.url, event: 'booking.created', body: d.path('a.json') });
    await send({ url: l.url, event: 'booking.created', body: d.path('b.json') });
    await l.stop();
    expect(jsonLines(l.out()).map((x) => x.attempt)).toEqual([1, 2]);
    await expect(runListen({ port: 0, secret: LISTEN_SECRET, respondAfter: 2 }, makeCtx())).rejects.toMatchObject({ exitCode: 2 });
  });
});

it('--respond-delay waits before answering; Ctrl-C does not wait for it', async () => {
  const l = await startListen({ save: false, respondDelay: 300 });
  const started = Date.now();
  expect((await send({ url: l.url, event: 'booking.created' })).code).toBe(0);
  expect(Date.now() - started).toBeGreaterThanOrEqual(290);
  const d = newDir();
  const slow = await startListen({ saveDir: d.dir, respondDelay: 120_000 });
  const pending = send({ url: slow.url, event: 'booking.created' }).catch(() => undefined);
  // Saved before the wait for the answer begins.
  await until(() => readdirSync(d.dir).some((f) => f.endsWith('.http')), 'the delivery saved');
  const stopping = Date.now();
  expect(await slow.stop()).toBe(0);
  expect(Date.now() - stopping).toBeLessThan(3000);
  await pending;
  await l.stop();
});

describe('forwarding loops', () => {
  it.each([
    ['localhost', '127.0.0.1'],
    ['0.0.0.0', '127.0.0.1'],
    ['[::ffff:127.0.0.1]', '127.0.0.1'],
    ['[::ffff:7f00:1]', '127.0.0.1'],
    ['127.0.0.2', '0.0.0.0'],
    ['[::ffff:127.0.0.2]', '0.0.0.0'],
  ])('--forward-to the listener itself by another name (%s, listening on %s) is refused at start: exit 2', async (host, bound) => {
    const port = await freePort();
    const ctx = makeCtx();
    await expect(
      runListen({ port, host: bound, secret: LISTEN_SECRET, save: false, forwardTo: `http://${host}:${port}/hooks` }, ctx),
    ).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('is this listen itself'),
    });
  });

  it('a loop through another hop (two listens forwarding to each other) is cut: 508, one delivery line each', async () => {
    const [pa, pb] = [await freePort(), await freePort()];
    const a = await startListen({ port: pa, save: false, forwardTo: `http://127.0.0.1:${pb}/b` });
    const b = await startListen({ port: pb, save: false, forwardTo: `http://127.0.0.1:${pa}/a` });
    expect((await send({ url: a.url, event: 'booking.created' })).code).toBe(0);
    await until(() => a.err().includes('forwarding loop'), 'the loop cut');
    await until(() => b.out().includes('forwarded'), "b's forward line");
    await Promise.all([a.stop(), b.stop()]);
    expect(a.column(2)).toEqual(['authentic', 'forwarded']);
    expect(b.column(2)).toEqual(['authentic', 'forwarded']);
    expect(b.column(4)[1]).toBe('508');
  });
});

describe('a slow sender', () => {
  it('holds only the bytes it sent, and is cut after the idle limit, which gives them back', async () => {
    const l = await startListen({ save: false, maxInFlight: 1024 * 1024, idleTimeoutMs: 400 });
    const { port } = new URL(l.url);
    // Declares 60 MiB (more than the whole budget), sends 600 KiB, then nothing.
    const slow = connect(Number(port), '127.0.0.1');
    let answer = '';
    slow.on('data', (c) => (answer += c));
    const closed = new Promise<void>((r) => slow.on('close', () => r()));
    slow.write(`POST /hooks HTTP/1.1\r\nHost: x\r\nX-Service-Event: booking.created\r\nContent-Length: ${60 * 1024 * 1024}\r\n\r\n`);
    slow.write(Buffer.alloc(600 * 1024, 'x'));
    // A delivery that fits beside what was received goes through: the declared length reserves nothing.
    expect((await send({ url: l.url, event: 'booking.created' })).code).toBe(0);
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(l.err()).toContain('that sent nothing for 0.4 s');
    // Its 600 KiB are given back: a 900 KiB delivery fits now.
    const d = newDir();
    writeFileSync(d.path('big.json'), `{"pad":"${'y'.repeat(900 * 1024)}"}`);
    expect((await send({ url: l.url, event: 'booking.created', body: d.path('big.json') })).code).toBe(0);
    await l.stop();
  });
});

describe('many dropped senders', () => {
  it('draw one warning each kind, and a count at stop, not a line per sender (issue 33)', async () => {
    const l = await startListen({ save: false, idleTimeoutMs: 300 });
    const { port } = new URL(l.url);
    // 60 senders that start a delivery and go quiet: each is cut after the idle limit.
    const senders = Array.from({ length: 60 }, () => {
      const s = connect(Number(port), '127.0.0.1');
      s.on('error', () => {});
      s.resume();
      s.write('POST /hooks HTTP/1.1\r\nHost: x\r\nX-Service-Event: booking.created\r\nContent-Length: 100\r\n\r\n{"a":');
      return new Promise<void>((r) => s.on('close', () => r()));
    });
    await Promise.all(senders);
    await l.stop();
    const cut = l
      .err()
      .split('\n')
      .filter((line) => line.includes('sent nothing for'));
    expect(cut).toHaveLength(1);
    expect(l.err()).toContain('warning: 60 deliveries in all were cut for sending nothing for 0.3 s.');
  });
});
