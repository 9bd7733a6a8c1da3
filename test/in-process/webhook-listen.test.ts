// `webhook listen` and `webhook send` against each other over 127.0.0.1: verdicts, 200/401, saved
// captures that `verify --request` accepts, and forwarding byte for byte.
import { startReceiver, type Receiver, type Received } from '../helpers/receiver';
import { createServer, request } from 'node:http';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createHmac } from 'node:crypto';
import { connect as netConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runListen } from '../../src/commands/webhook/listen/listen';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { CaptureSaver } from '../../src/commands/webhook/listen/save';
import { EVENTS } from '../../src/webhook/events';
import { makeCtx, tempDirsPerTest, type KitOptions } from '../helpers/webhook-kit';
import { LISTEN_SECRET, startListen } from '../helpers/listen-kit';
import { until } from '../helpers/until';

const SECRET = LISTEN_SECRET;

async function send(opts: Partial<SendOptions> & { url: string }, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'tsv', ...kit });
  const code = await runSend({ event: 'booking.created', secret: SECRET, ...opts }, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

async function verifyCaptures(files: string[]) {
  const ctx = makeCtx({ output: 'json' });
  const code = await runVerify({ request: files, secret: SECRET }, ctx);
  return { code, verdicts: JSON.parse(ctx.io.out()) as { authentic: boolean; event: string }[] };
}

/** A receiver that records what reaches it, for --forward-to. */
interface Recorded {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}
let recorder: Receiver;
let recorderUrl: string;
const recorded: Recorded[] = [];
beforeAll(async () => {
  recorder = await startReceiver({ answer: 202, into: recorded as Received[] });
  recorderUrl = `${recorder.url}/app/hooks?x=1`;
});
afterAll(() => recorder.close());

const newDir = tempDirsPerTest();

describe('listen → send → save → verify --request', () => {
  it('every event: 200, one line each, captures that verify', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.path('caps') });
    for (const event of EVENTS) {
      const r = await send({ url: l.url, event });
      expect(r).toMatchObject({
        code: 0,
        out: expect.stringMatching(new RegExp(`^200\tOK\t${event.replace('.', '\\.')}\t\\d+\thttp:\\S+\n$`)),
      });
    }
    expect(await l.stop()).toBe(0);
    const lines = l
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t'));
    expect(lines.map((f) => [f[1], f[2], f[3]])).toEqual(EVENTS.map((e) => [e, 'authentic', expect.stringMatching(/^bk_[0-9a-f]{20}$/)]));
    expect(statSync(d.path('caps')).mode & 0o777).toBe(0o700);
    const files = readdirSync(d.path('caps')).map((f) => d.path(`caps/${f}`));
    expect(files).toHaveLength(6);
    expect(files.map((f) => statSync(f).mode & 0o777)).toEqual(Array(6).fill(0o600));
    expect(files.map((f) => lines.find((x) => x[6] === f))).not.toContain(undefined);
    const v = await verifyCaptures(files);
    expect(v.code).toBe(0);
    expect(v.verdicts.map((x) => x.event)).toEqual([...EVENTS]);
    expect(readFileSync(files[2]!, 'utf8')).toMatch(/"previous":\{"start":/);
  });

  it('a bad signature: 401, a not-authentic line, saved all the same, send exits 1', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir, forwardTo: recorderUrl });
    const before = recorded.length;
    const r = await send({ url: l.url, secret: 'not the secret' });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^401\tUnauthorized\t/);
    expect(r.err).toContain('the receiver answered 401 Unauthorized');
    await l.stop();
    expect(l.out()).toMatch(/\tbooking\.created\tnot-authentic\tbk_[0-9a-f]{20}\t\tthe signature does not match/);
    expect(recorded.length).toBe(before);
    const files = readdirSync(d.dir).map((f) => d.path(f));
    expect((await verifyCaptures(files)).code).toBe(1);
  });

  it('a chunked delivery is saved as a capture that still verifies', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir }, { output: 'ndjson' });
    const body = Buffer.from('{"data":{"uid":"bk_chunked"}}\r\n');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(l.url, {
        method: 'POST',
        headers: {
          'x-service-event': 'booking.completed',
          'x-service-signature': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
        },
      });
      req.on('response', (res) => resolve(res.statusCode!)).on('error', reject);
      req.write(body.subarray(0, 7));
      req.end(body.subarray(7));
    });
    expect(status).toBe(200);
    await l.stop();
    const line = JSON.parse(l.out().trimEnd().split('\n').at(-1)!);
    expect(line).toMatchObject({
      type: 'delivery',
      event: 'booking.completed',
      authentic: true,
      reason: null,
      uid: 'bk_chunked',
      bytes: body.length,
      method: 'POST',
      path: '/webhooks',
    });
    expect(readFileSync(line.capture, 'latin1')).toMatch(/Transfer-Encoding: chunked\r\n\r\n1f\r\n/);
    expect((await verifyCaptures([line.capture])).code).toBe(0);
  });

  it('--no-save writes nothing', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.path('caps'), save: false });
    expect((await send({ url: l.url })).code).toBe(0);
    await l.stop();
    expect(readdirSync(d.dir)).toEqual([]);
    expect(l.err()).toContain('Captures are not saved');
  });
});

describe('--tz', () => {
  it("the time column in that zone: tsv as ISO 8601 with the zone's offset, json as sent (UTC)", async () => {
    const tsv = await startListen({ save: false }, { tz: 'Asia/Tokyo' });
    const json = await startListen({ save: false }, { tz: 'Asia/Tokyo', output: 'ndjson' });
    expect((await send({ url: tsv.url })).code).toBe(0);
    expect((await send({ url: json.url })).code).toBe(0);
    await tsv.stop();
    await json.stop();
    expect(tsv.out()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?\+09:00\tbooking\.created\tauthentic\t/);
    expect(JSON.parse(json.out().trimEnd().split('\n').at(-1)!).time).toMatch(/Z$/);
  });
});

describe('forwarding per event (--forward-to EVENT=URL, repeatable)', () => {
  it('routes each event to its URL, the rest to the bare one; each forward line shows the local status', async () => {
    const cancels = await startReceiver({ answer: 204 });
    const rest = await startReceiver({ answer: 500 });
    try {
      const l = await startListen(
        { save: false, forwardTo: [`booking.cancelled=${cancels.url}/cancel?a=b`, `${rest.url}/hooks`] },
        { output: 'ndjson' },
      );
      expect(l.err()).toContain(
        `Authentic deliveries are forwarded: booking.cancelled to ${cancels.url}/cancel?a=b; the rest to ${rest.url}/hooks`,
      );
      for (const event of ['booking.cancelled', 'booking.created'] as const) expect((await send({ url: l.url, event })).code).toBe(0);
      await cancels.arrived(1);
      await rest.arrived(1);
      await until(() => (l.out().match(/"type":"forward"/g) ?? []).length === 2, 'both forward lines');
      await l.stop();
      expect(cancels.received.map((r) => [r.url, r.headers['x-service-event']])).toEqual([['/cancel?a=b', 'booking.cancelled']]);
      expect(rest.received.map((r) => [r.url, r.headers['x-service-event']])).toEqual([['/hooks', 'booking.created']]);
      const forwards = l
        .out()
        .trimEnd()
        .split('\n')
        .map((x) => JSON.parse(x))
        .filter((x) => x.type === 'forward')
        .map((x) => [x.event, x.forward.status]);
      expect(forwards.sort()).toEqual([
        ['booking.cancelled', 204],
        ['booking.created', 500],
      ]);
    } finally {
      await cancels.close();
      await rest.close();
    }
  });

  it('named events only: the others are answered and shown, not forwarded', async () => {
    const cancels = await startReceiver({ answer: 200 });
    try {
      const l = await startListen({ save: false, forwardTo: [`booking.cancelled=${cancels.url}/c`] }, { tty: true, output: undefined });
      expect(l.err()).toContain('; the rest are not forwarded');
      expect((await send({ url: l.url, event: 'booking.created' })).code).toBe(0);
      expect((await send({ url: l.url, event: 'booking.cancelled' })).code).toBe(0);
      await cancels.arrived(1);
      await until(() => l.out().includes('→ 200'), 'the forward line');
      await l.stop();
      expect(cancels.received).toHaveLength(1);
    } finally {
      await cancels.close();
    }
  });

  it('an event named twice, or two bare URLs: exit 2 before listening', async () => {
    for (const forwardTo of [
      ['booking.created=http://127.0.0.1:9/a', 'booking.created=http://127.0.0.1:9/b'],
      ['http://127.0.0.1:9/a', 'http://127.0.0.1:9/b'],
      ['booking.created=ftp://x'],
    ]) {
      await expect(runListen({ forwardTo, secret: SECRET, port: 0 }, makeCtx())).rejects.toMatchObject({ exitCode: 2 });
    }
  });
});

describe('forwarding', () => {
  it('forwards an authentic delivery unchanged: body bytes, headers, method', async () => {
    const d = newDir();
    const body = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x0d, 0x0a, 0xff, 0x00, 0x7d, 0x0a]);
    writeFileSync(d.path('body.bin'), body);
    const l = await startListen({ save: false, forwardTo: recorderUrl });
    const before = recorded.length;
    expect((await send({ url: l.url, event: 'booking.rescheduled', body: d.path('body.bin') })).code).toBe(0);
    await l.stop();
    const got = recorded[before]!;
    expect(got.body.equals(body)).toBe(true);
    expect(got.method).toBe('POST');
    expect(got.url).toBe('/app/hooks?x=1');
    // Connection describes the forward's own connection (node's keep-alive), not the delivery.
    const names = got.rawHeaders.filter((_, i) => i % 2 === 0).filter((n) => n !== 'Connection');
    expect(names).toEqual([
      'Host',
      'Content-Type',
      'User-Agent',
      'X-Service-Event',
      'X-Service-Signature',
      'Content-Length',
      'X-Booking-Forwarded',
    ]);
    expect(got.rawHeaders[got.rawHeaders.indexOf('X-Service-Signature') + 1]).toBe(
      `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    );
    const lines = l
      .out()
      .replace(/\n$/, '')
      .split('\n')
      .map((line) => line.split('\t').slice(1));
    expect(lines).toEqual([
      // The status listen answered is the last column.
      ['booking.rescheduled', 'authentic', '', '', '', '', '1', '', '200'],
      ['booking.rescheduled', 'forwarded', '', '202'],
    ]);
  });

  it('a signature header that is bare or upper-case hex: 401, and the line says what is wrong', async () => {
    const l = await startListen({ save: false, forwardTo: recorderUrl });
    const before = recorded.length;
    const body = Buffer.from('{"uid":"bk_form"}');
    const hex = createHmac('sha256', SECRET).update(body).digest('hex');
    const post = (signature: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request(l.url, { method: 'POST', headers: { 'x-service-event': 'booking.created', 'x-service-signature': signature } });
        req.on('response', (res) => resolve(res.statusCode!)).on('error', reject);
        req.end(body);
      });
    expect([await post(hex), await post(`sha256=${hex.toUpperCase()}`), await post(`sha256=${hex}`)]).toEqual([401, 401, 200]);
    await l.stop();
    const reasons = l
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t').slice(2, 6).join('|'));
    expect(reasons.slice(0, 2)).toEqual([
      'not-authentic|bk_form||malformed X-Service-Signature header: it lacks the sha256= prefix (the service sends sha256= and 64 lowercase hex digits)',
      'not-authentic|bk_form||malformed X-Service-Signature header: it has upper-case hex digits (the service sends sha256= and 64 lowercase hex digits)',
    ]);
    expect(recorded.length).toBe(before + 1);
  });

  it('no X-Service-Event header, two of them, or an empty one: 401 and not forwarded, though the signature matches', async () => {
    const l = await startListen({ save: false, forwardTo: recorderUrl });
    const before = recorded.length;
    const body = Buffer.from('{"uid":"bk_ev"}');
    const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
    const post = (events: string[]) =>
      new Promise<number>((resolve, reject) => {
        const headers: [string, string][] = [
          ['Host', new URL(l.url).host],
          ['Content-Length', String(body.length)],
          ['X-Service-Signature', signature],
          ...events.map((e): [string, string] => ['X-Service-Event', e]),
        ];
        const req = request(l.url, { method: 'POST', headers: headers.flat() as unknown as Record<string, string> });
        req.on('response', (res) => resolve(res.statusCode!)).on('error', reject);
        req.end(body);
      });
    expect([
      await post([]),
      await post(['booking.created', 'booking.cancelled']),
      await post(['']),
      await post(['booking.created']),
    ]).toEqual([401, 401, 401, 200]);
    await l.stop();
    const reasons = l
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => line.split('\t').slice(2, 6).join('|'));
    expect(reasons.slice(0, 3)).toEqual([
      'not-authentic|bk_ev||no X-Service-Event header (the signature matches the body)',
      'not-authentic|bk_ev||more than one X-Service-Event header (the signature matches the body)',
      'not-authentic|bk_ev||empty X-Service-Event header (the signature matches the body)',
    ]);
    expect(recorded.length).toBe(before + 1);
  });

  it('each delivery line says the status listen answered: 200, 401 for one not authentic (ndjson and the terminal)', async () => {
    const l = await startListen({ save: false }, { output: 'ndjson' });
    expect((await send({ url: l.url })).code).toBe(0);
    expect((await send({ url: l.url, secret: 'whsec_not_the_one' })).code).toBe(1);
    await l.stop();
    const lines = l
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; authentic?: boolean; status?: number });
    expect(lines.filter((d) => d.type === 'delivery').map((d) => [d.authentic, d.status])).toEqual([
      [true, 200],
      [false, 401],
    ]);
  });

  it('notes a forward that fails on a line of its own, and still answers 200', async () => {
    const l = await startListen({ save: false, forwardTo: 'http://127.0.0.1:9/' }, { tty: true, output: undefined });
    expect((await send({ url: l.url })).code).toBe(0);
    await l.stop();
    expect(l.out()).toMatch(
      /^\d\d:\d\d:\d\d {2}booking\.created {2}✓ authentic {2}bk_[0-9a-f]{20} {2}→ 200\n\d\d:\d\d:\d\d {2}booking\.created {2}bk_[0-9a-f]{20} {2}→ failed: cannot reach http:\/\/127\.0\.0\.1:9: connection refused\.\n$/,
    );
  });

  it('prints the delivery line when it is answered, not when a slow forward target answers', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let arrived = false;
    const slow = createServer((req, res) => {
      arrived = true;
      req.resume();
      void held.then(() => res.writeHead(204).end());
    });
    await new Promise<void>((r) => slow.listen(0, '127.0.0.1', r));
    try {
      const target = `http://127.0.0.1:${(slow.address() as { port: number }).port}/slow`;
      const d = newDir();
      const l = await startListen({ saveDir: d.dir, forwardTo: target }, { output: 'ndjson' });
      expect((await send({ url: l.url, event: 'booking.confirmed' })).code).toBe(0);
      // The forward is under way and held: the delivery's line is out already, the forward's is not.
      // The first record says where it listens (a script waits for it); then the delivery's.
      await until(() => Boolean(arrived && l.out().split('\n').length >= 3), 'the listening record and the delivery line');
      expect(arrived).toBe(true);
      const [listening, ...first] = l
        .out()
        .trimEnd()
        .split('\n')
        .map((x) => JSON.parse(x));
      expect(listening).toEqual({ type: 'listening', url: l.url.replace(/webhooks$/, '') });
      expect(first).toMatchObject([{ type: 'delivery', event: 'booking.confirmed', authentic: true, uid: expect.stringMatching(/^bk_/) }]);
      release();
      await until(() => l.out().split('\n').length >= 4, 'three lines');
      await l.stop();
      const lines = l
        .out()
        .trimEnd()
        .split('\n')
        .slice(1)
        .map((x) => JSON.parse(x));
      expect(lines).toHaveLength(2);
      expect(lines[1]).toEqual({
        type: 'forward',
        time: expect.any(String),
        event: 'booking.confirmed',
        uid: first[0].uid,
        capture: first[0].capture,
        forward: { url: target, status: 204 },
      });
    } finally {
      release();
      await new Promise<void>((r) => slow.close(() => r()));
    }
  });
});

describe('listen: start and stop', () => {
  it('stops cleanly on abort with exit 0', async () => {
    const l = await startListen({ save: false });
    expect(await l.stop()).toBe(0);
  });

  it('a sender stalled part-way through a body does not hold the stop: exit 0, and a warning', async () => {
    const l = await startListen({ save: false });
    const { port } = new URL(l.url);
    const socket = netConnect(Number(port), '127.0.0.1');
    await new Promise((r) => socket.once('connect', r));
    socket.on('error', () => {});
    // Expect: 100-continue: node's server answers "100 Continue" once the request is in listen's
    // handler, so the body that follows is known to be arriving when stop() is called.
    const handled = new Promise((r) => socket.once('data', r));
    socket.write('POST /webhooks HTTP/1.1\r\nHost: x\r\nContent-Length: 20\r\nExpect: 100-continue\r\n\r\n');
    await handled;
    socket.write('{"');
    const started = Date.now();
    expect(await l.stop()).toBe(0);
    expect(Date.now() - started).toBeLessThan(2900);
    expect(l.err()).toMatch(/warning: a delivery from 127\.0\.0\.1 was still arriving at stop; dropped\.\n/);
    expect(l.err()).not.toContain('error:');
    socket.destroy();
  });

  it('a body over 64 MiB is refused (413) with a warning naming the sender, not an error', async () => {
    const l = await startListen({ save: false });
    // The sender may see the 413 or, still writing when the socket closes, only a reset: either way
    // what the listen user sees is the warning.
    await new Promise<void>((resolve) => {
      const req = request(l.url, { method: 'POST', headers: { 'content-length': String(65 * 1024 * 1024) } });
      req.on('response', (res) => (res.resume(), resolve())).on('error', () => resolve());
      const chunk = Buffer.alloc(1024 * 1024);
      let sent = 0;
      const pump = (): void => {
        while (sent < 65) {
          sent++;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    await until(() => l.err().includes('refused'), 'the refusal');
    await l.stop();
    expect(l.err()).toContain('warning: refused a body over 64 MiB from 127.0.0.1.');
    expect(l.err()).not.toContain('error:');
  });

  it('a port in use is a failure naming it', async () => {
    const l = await startListen({ save: false });
    const port = Number(new URL(l.url).port);
    await expect(runListen({ port, host: '127.0.0.1', secret: SECRET }, makeCtx())).rejects.toMatchObject({
      exitCode: 1,
      message: expect.stringContaining('the port is in use'),
    });
    await l.stop();
  });

  it('a --forward-to that is not an http(s) URL is a usage error', async () => {
    await expect(runListen({ forwardTo: 'ftp://x', secret: SECRET }, makeCtx())).rejects.toMatchObject({ exitCode: 2 });
  });
});

describe('send: usage and failures', () => {
  it.each([
    ['no --event', { event: undefined }, 2],
    ['an unknown event', { event: 'booking.deleted' }, 2],
    ['a URL that is not http(s)', { url: 'mailto:x@example.com' }, 2],
    ['a missing --body file', { body: '/nonexistent/body.json' }, 2],
  ])('%s → exit %i', async (_what, opts: Partial<SendOptions>, code) => {
    await expect(send({ url: 'http://127.0.0.1:9/', ...opts })).rejects.toMatchObject({ exitCode: code });
  });

  it("an unknown event with a body of one's own: sent as given, with a warning", async () => {
    const d = newDir();
    writeFileSync(d.path('body.json'), '{"uid":"bk_custom"}');
    const l = await startListen({ save: false });
    const r = await send(
      { url: l.url, event: 'booking.deleted', body: d.path('body.json'), secret: undefined },
      { env: { BOOKING_WEBHOOK_SECRET: SECRET } },
    );
    await l.stop();
    expect(r).toEqual({
      code: 0,
      out: `200\tOK\tbooking.deleted\t19\t${l.url}\n`,
      err: `warning: "booking.deleted" is not one of the six events the service sends (${EVENTS.join(', ')}); sending it as given.\n`,
    });
    expect(l.out()).toMatch(/^\S+\tbooking\.deleted\tauthentic\tbk_custom\t/);
  });

  it('an unknown event without a body: exit 2, as there is no sample for it', async () => {
    await expect(send({ url: 'http://127.0.0.1:9/', event: 'booking.deleted' })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(
        /^unknown event "booking\.deleted": there is no sample body for it; .* or give the body with --body FILE\.$/,
      ),
    });
  });

  it('an event that cannot be a header value: exit 2, before anything is sent', async () => {
    const d = newDir();
    writeFileSync(d.path('body.json'), '{}');
    await expect(send({ url: 'http://127.0.0.1:9/', event: 'a\r\nX-Evil: 1', body: d.path('body.json') })).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('"a\\r\\nX-Evil: 1" cannot be sent as a header'),
    });
  });

  it('sample bodies: completed and no-show are of a meeting that has ended, the others of one to come', async () => {
    const now = new Date('2026-03-10T00:05:00.000Z');
    const before = recorded.length;
    for (const event of EVENTS) expect((await send({ url: recorderUrl, event }, { now })).code).toBe(0);
    const bookings = recorded
      .slice(before)
      .map((r) => JSON.parse(r.body.toString()).data.booking as { status: string; start: string; end: string });
    const when = bookings.map((b) => [
      b.status,
      Date.parse(b.end) < now.getTime() ? 'ended' : Date.parse(b.start) > now.getTime() ? 'to come' : 'under way',
    ]);
    expect(when).toEqual([
      ['pending', 'to come'],
      ['confirmed', 'to come'],
      ['confirmed', 'to come'],
      ['cancelled', 'to come'],
      ['completed', 'ended'],
      ['completed', 'ended'],
    ]);
  });

  it('connection refused → exit 1 with a one-line message', async () => {
    await expect(send({ url: 'http://127.0.0.1:9/hook' })).rejects.toMatchObject({
      exitCode: 1,
      message: 'cannot reach http://127.0.0.1:9: connection refused.',
    });
  });

  it('the body from stdin; json output', async () => {
    const l = await startListen({ save: false });
    const r = await send({ url: l.url, body: '-' }, { stdin: '{"uid":"bk_stdin"}', output: 'json' });
    await l.stop();
    expect(JSON.parse(r.out)).toMatchObject({ event: 'booking.created', bytes: 18, status: 200, ok: true });
    expect(l.out()).toContain('\tbk_stdin\t');
  });
});

describe('capture files', () => {
  it('never overwrite an existing file; names sort by arrival', async () => {
    const d = newDir();
    const saver = new CaptureSaver(d.dir);
    const time = new Date('2025-03-01T10:00:00.000Z');
    writeFileSync(d.path('20250301T100000.000Z-0001-booking.created.http'), 'keep me');
    const head = { method: 'POST', url: '/h', httpVersion: '1.1', rawHeaders: ['Host', 'x'] };
    const a = await saver.save(head, Buffer.from('a'), 'booking.created', time);
    const b = await saver.save(head, Buffer.from('b'), 'booking/../evil', time);
    expect(a).toBe(d.path('20250301T100000.000Z-0002-booking.created.http'));
    expect(b).toBe(d.path('20250301T100000.000Z-0003-booking_.._evil.http'));
    expect(readFileSync(d.path('20250301T100000.000Z-0001-booking.created.http'), 'utf8')).toBe('keep me');
    expect(readFileSync(a!, 'utf8')).toBe('POST /h HTTP/1.1\r\nHost: x\r\n\r\na');
  });
});
