// `webhook send` as a development tool: a fresh event id and booking uid per delivery, --set overrides
// of the payload, and --request replays of saved captures, against a recording receiver on 127.0.0.1.
import { startReceiver, type Receiver, type Received } from '../helpers/receiver';
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { EVENTS } from '../../src/webhook/events';
import { makeCtx, tempDir, type KitOptions } from '../helpers/webhook-kit';

const SECRET = 'whsec_send';
const sign = (body: string | Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

interface Got {
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}
const got: Got[] = [];
let receiver: Receiver;
let url: string;
beforeAll(async () => {
  receiver = await startReceiver({ into: got as Received[] });
  url = `${receiver.url}/hooks`;
});
afterAll(() => receiver.close());
beforeEach(() => void got.splice(0));

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function send(opts: Partial<SendOptions>, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'json', ...kit });
  const code = await runSend({ url, secret: SECRET, ...opts } as SendOptions, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}
const payload = (i: number) =>
  JSON.parse(got[i]!.body.toString()) as { id: string; event: string; data: { booking: Record<string, unknown> } };

describe('fresh samples', () => {
  it('two sends give two different event ids and booking uids, each signed', async () => {
    expect((await send({ event: 'booking.created' })).code).toBe(0);
    expect((await send({ event: 'booking.created' })).code).toBe(0);
    expect(payload(0).id).toMatch(/^evt_[0-9a-f]{20}$/);
    expect(payload(0).id).not.toBe(payload(1).id);
    expect(payload(0).data.booking.uid).not.toBe(payload(1).data.booking.uid);
    for (const g of got) expect(g.headers['x-service-signature']).toBe(sign(g.body));
  });

  it('all six events keep a realistic sample', async () => {
    for (const event of EVENTS) expect((await send({ event })).code).toBe(0);
    expect(got.map((_, i) => [payload(i).event, payload(i).data.booking.status])).toEqual([
      ['booking.created', 'pending'],
      ['booking.confirmed', 'confirmed'],
      ['booking.rescheduled', 'confirmed'],
      ['booking.cancelled', 'cancelled'],
      ['booking.completed', 'completed'],
      ['no_show.flagged', 'completed'],
    ]);
    expect(payload(2).data).toHaveProperty('previous.start');
    expect(payload(5).data.booking.no_show).toBe(true);
  });
});

describe('--set', () => {
  it('changes exactly the field named; JSON values are taken as JSON, others as text', async () => {
    const r = await send({
      event: 'booking.created',
      set: ['data.booking.status=cancelled', 'data.booking.attendee={"name":"X"}', 'data.booking.seats=3', 'data.booking.note=hello world'],
    });
    expect(r.code).toBe(0);
    const b = payload(0).data.booking;
    expect(b).toMatchObject({ status: 'cancelled', attendee: { name: 'X' }, seats: 3, note: 'hello world', title: '30 min meeting' });
    expect(Object.keys(b)).toEqual(['uid', 'title', 'status', 'start', 'end', 'attendee', 'event_type', 'seats', 'note']);
    expect(got[0]!.headers['x-service-signature']).toBe(sign(got[0]!.body));
  });

  it('applies to a JSON --body too', async () => {
    const d = tempDir({ 'body.json': '{"event":"booking.created","data":{"booking":{"uid":"bk_1","status":"pending"}}}' });
    try {
      expect((await send({ event: 'booking.created', body: d.path('body.json'), set: ['data.booking.uid="42"'] })).code).toBe(0);
      expect(got[0]!.body.toString()).toBe('{"event":"booking.created","data":{"booking":{"uid":"42","status":"pending"}}}');
    } finally {
      d.cleanup();
    }
  });

  it.each([
    ['no =', 'data.booking.status', '--set "data.booking.status": expected PATH=VALUE, such as data.booking.status=cancelled.'],
    [
      'an empty key',
      'data..status=x',
      '--set "data..status=x": the path has an empty key (keys are separated by single dots, as in data.booking.status).',
    ],
    ['a misspelt step', 'data.boking.status=x', '--set "data.boking.status=x": data has no "boking" (it has: booking).'],
    [
      'into a string',
      'data.booking.status.x=1',
      '--set "data.booking.status.x=1": data.booking.status is a string, not an object with fields.',
    ],
  ])('%s: exit 2, one line, nothing sent', async (_name, set, message) => {
    await expect(send({ event: 'booking.created', set: [set] })).rejects.toMatchObject({ exitCode: 2, message });
    expect(got).toHaveLength(0);
  });

  it('a body that is not JSON cannot take --set', async () => {
    const d = tempDir({ 'body.txt': 'plain' });
    try {
      await expect(send({ event: 'booking.created', body: d.path('body.txt'), set: ['a=1'] })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringMatching(/^--set needs a JSON body, and .*body\.txt is not JSON/),
      });
    } finally {
      d.cleanup();
    }
  });
});

describe('--request: replaying a capture', () => {
  const body = '{"id":"evt_real","event":"booking.cancelled","data":{"booking":{"uid":"bk_real"}}}';
  const capture = (signature: string) =>
    `POST /hooks HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Service-Event: booking.cancelled\r\nX-Service-Signature: ${signature}\r\nContent-Length: ${body.length}\r\n\r\n${body}`;

  it('without a secret: the same body, event and signature; the receiver verifies it', async () => {
    const d = tempDir({ 'cap.http': capture(sign(body, 'the real secret')) });
    try {
      const r = await send({ secret: undefined, request: d.path('cap.http') });
      expect(r.code).toBe(0);
      expect(got[0]!.body.toString()).toBe(body);
      expect(got[0]!.headers).toMatchObject({
        'x-service-event': 'booking.cancelled',
        'x-service-signature': sign(body, 'the real secret'),
      });
      expect(JSON.parse(r.out)).toMatchObject({ event: 'booking.cancelled', bytes: body.length, status: 200 });
    } finally {
      d.cleanup();
    }
  });

  it('with a secret: re-signed; with --set too', async () => {
    const d = tempDir({ 'cap.http': capture(sign(body, 'old')) });
    try {
      expect((await send({ request: d.path('cap.http') }, { env: {} })).code).toBe(0);
      expect(got[0]!.headers['x-service-signature']).toBe(sign(body));
      expect(
        (
          await send(
            { secret: undefined, request: d.path('cap.http'), set: ['data.booking.uid=bk_2'] },
            { env: { BOOKING_WEBHOOK_SECRET: SECRET } },
          )
        ).code,
      ).toBe(0);
      expect(payload(1).data.booking.uid).toBe('bk_2');
      expect(got[1]!.headers['x-service-signature']).toBe(sign(got[1]!.body));
      await expect(send({ secret: undefined, request: d.path('cap.http'), set: ['a=1'] })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('--set changes the body'),
      });
    } finally {
      d.cleanup();
    }
  });

  it('a replay that listen saved verifies at the receiver (send → capture → send --request → verify)', async () => {
    const d = tempDir({ 'cap.http': capture(sign(body)) });
    try {
      expect((await send({ secret: undefined, request: d.path('cap.http') })).code).toBe(0);
      const echo = `POST /hooks HTTP/1.1\r\nX-Service-Event: ${got[0]!.headers['x-service-event']}\r\nX-Service-Signature: ${got[0]!.headers['x-service-signature']}\r\nContent-Length: ${got[0]!.body.length}\r\n\r\n${got[0]!.body}`;
      const t = tempDir({ 'again.http': echo });
      const ctx = makeCtx({ output: 'json' });
      expect(await runVerify({ request: [t.path('again.http')], secret: SECRET, event: 'booking.cancelled' }, ctx)).toBe(0);
      t.cleanup();
    } finally {
      d.cleanup();
    }
  });

  it('--body with --request, or a capture without an event: exit 2', async () => {
    const d = tempDir({ 'noevent.http': `POST / HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}` });
    try {
      await expect(send({ request: d.path('noevent.http'), body: d.path('noevent.http') })).rejects.toMatchObject({ exitCode: 2 });
      await expect(send({ request: d.path('noevent.http') })).rejects.toMatchObject({
        exitCode: 2,
        message: expect.stringContaining('has no X-Service-Event header: give the event with --event'),
      });
      expect((await send({ request: d.path('noevent.http'), event: 'booking.created' })).code).toBe(0);
      expect(got[0]!.headers['x-service-event']).toBe('booking.created');
    } finally {
      d.cleanup();
    }
  });
});
