import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EVENTS } from '../../src/webhook/signature';
import { startSandbox } from '../../src/sandbox/server';
import { MAX_WAITING, WebhookSender } from '../../src/sandbox/webhooks';
import { get } from '../helpers/sandbox-http';
import { startReceiver, type Received } from '../helpers/receiver';
import { until } from '../helpers/until';

interface Delivery {
  event: string;
  signature: string;
  contentType: string;
  raw: Buffer;
  body: any;
  authentic: boolean;
}

/** The receiver's requests answered 2xx, each with its HMAC under `secret` checked here. */
async function receiver(secret: string, answer: (n: number) => number = () => 204) {
  const rx = await startReceiver({ answer: (_request, n) => answer(n) });
  const delivery = (r: Received): Delivery => {
    const signature = String(r.headers['x-service-signature']);
    const want = Buffer.from(`sha256=${createHmac('sha256', secret).update(r.body).digest('hex')}`);
    return {
      event: String(r.headers['x-service-event']),
      signature,
      contentType: String(r.headers['content-type']),
      raw: r.body,
      body: JSON.parse(r.body.toString()),
      authentic: want.length === signature.length && timingSafeEqual(want, Buffer.from(signature)),
    };
  };
  return {
    url: `${rx.url}/hooks`,
    get deliveries() {
      return rx.received.filter((r) => r.status < 300).map(delivery);
    },
    attempts: () => rx.received.length,
    close: rx.close,
  };
}

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((f) => f()));
});

describe('lifecycle', () => {
  it('sends all six events, signed over the exact bytes, to every webhook URL', async () => {
    const [a, b] = [await receiver('whsec_sandbox'), await receiver('whsec_sandbox')];
    cleanup.push(a.close, b.close);
    const sb = await startSandbox({ port: 0, tickSeconds: 0.05, bookings: 30, webhookUrls: [a.url, b.url] });
    cleanup.push(sb.close);
    await until(
      () => new Set(a.deliveries.map((d) => d.event)).size === 6 && new Set(b.deliveries.map((d) => d.event)).size === 6,
      'all six events at both URLs',
    );
    for (const d of [...a.deliveries, ...b.deliveries]) {
      expect(d.authentic).toBe(true);
      expect(d.contentType).toBe('application/json');
      expect(d.body.event).toBe(d.event);
      expect(d.body).toMatchObject({
        id: expect.stringMatching(/^evt_/),
        created_at: expect.any(String),
        data: { booking: { uid: expect.any(String) } },
      });
    }
    const rescheduled = a.deliveries.find((d) => d.event === 'booking.rescheduled')!.body.data;
    expect(rescheduled.previous.start).not.toBe(rescheduled.booking.start);
    expect(Date.parse(rescheduled.previous.end) - Date.parse(rescheduled.previous.start)).toBe(
      Date.parse(rescheduled.booking.end) - Date.parse(rescheduled.booking.start),
    );
    expect(a.deliveries.find((d) => d.event === 'no_show.flagged')!.body.data.booking).toMatchObject({
      status: 'completed',
      no_show: true,
    });
  });

  it('covers the six events in the first seven changes (14 s at the default 2 s), even from no bookings', async () => {
    for (const bookings of [0, 120]) {
      const sb = await startSandbox({ port: 0, tickSeconds: 0, bookings });
      cleanup.push(sb.close);
      const changes = Array.from({ length: 7 }, () => sb.advance());
      expect(new Set(changes.map((c) => c.event))).toEqual(new Set(EVENTS));
      const created = changes[0]!.booking;
      expect(changes.slice(1, 3).map((c) => [c.event, c.booking.uid])).toEqual([
        ['booking.confirmed', created.uid],
        ['booking.rescheduled', created.uid],
      ]);
    }
  });

  it('changes show through the API, and new bookings get new uids', async () => {
    const sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 10 });
    cleanup.push(sb.close);
    const created = sb.advance().booking;
    expect((await get(sb, `/api/v1/bookings/${created.uid}`)).json.data.status).toBe('pending');
    sb.advance();
    const r = await get(sb, `/api/v1/bookings/${created.uid}`);
    expect(r.json.data.status).toBe('confirmed');
    expect(r.json.data.updated_at).not.toBe(r.json.data.created_at);
    expect(sb.bookings()).toHaveLength(11);
  });

  it('writes big ids with exact digits in deliveries too', async () => {
    const rx = await receiver('whsec_sandbox');
    cleanup.push(rx.close);
    // Sequence 12 is created by the first change; 12 % 5 === 2 gives it a 64-bit id.
    const sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 11, webhookUrls: [rx.url] });
    cleanup.push(sb.close);
    sb.advance();
    await sb.deliveriesSettled();
    expect(rx.deliveries[0]!.raw.toString()).toContain('"booking":{"id":9007199254764993,');
  });

  it('retries a failing receiver with backoff, logging each attempt', async () => {
    const rx = await receiver('whsec_sandbox', (n) => (n <= 2 ? 500 : 200));
    cleanup.push(rx.close);
    const lines: string[] = [];
    const sb = await startSandbox({
      port: 0,
      tickSeconds: 0,
      webhookUrls: [rx.url],
      retryDelaysMs: [20, 40, 80],
      log: (l) => lines.push(l),
      warn: (l) => lines.push(l),
    });
    cleanup.push(sb.close);
    sb.advance();
    await sb.deliveriesSettled();
    expect(rx.attempts()).toBe(3);
    expect(rx.deliveries).toHaveLength(1);
    const hooks = lines.filter((l) => l.includes(' webhook '));
    expect(hooks).toHaveLength(3);
    expect(hooks[0]).toMatch(
      new RegExp(`^\\d{4}-\\d\\d-\\d\\dT\\S+Z webhook booking.created ${rx.url} 500 \\(attempt 1/4, retrying in 0.02s\\)$`),
    );
    expect(hooks[2]).toMatch(/ 200 \(attempt 3\/4\)$/);
  });

  it('delivers to a URL in the order of the changes, even while the first one is being retried', async () => {
    const rx = await receiver('whsec_sandbox', (n) => (n <= 2 ? 503 : 204));
    cleanup.push(rx.close);
    const sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 5, webhookUrls: [rx.url], retryDelaysMs: [30, 30, 30] });
    cleanup.push(sb.close);
    for (let i = 0; i < 12; i++) sb.advance();
    await sb.deliveriesSettled();
    expect(rx.deliveries).toHaveLength(12);
    expect(rx.deliveries[0]!.event).toBe('booking.created');
    const seen = new Map<string, string[]>();
    for (const d of rx.deliveries) {
      const uid = String(d.body.data.booking.uid);
      seen.set(uid, [...(seen.get(uid) ?? []), d.event]);
    }
    const created = [...seen.values()].filter((events) => events.includes('booking.created'));
    expect(created.length).toBeGreaterThan(1);
    for (const events of created) expect(events[0]).toBe('booking.created');
  });

  it('keeps at most MAX_WAITING deliveries waiting for a receiver that is down; more are dropped with a warning', async () => {
    const warns: string[] = [];
    const sender = new WebhookSender({ urls: ['http://127.0.0.1:9/'], secret: 's', retryDelaysMs: [60_000], warn: (l) => warns.push(l) });
    for (let i = 0; i < MAX_WAITING + 5; i++) sender.send('booking.created', '{}');
    await sender.close();
    const dropped = warns.filter((l) => l.includes(' dropped '));
    expect(dropped).toHaveLength(4);
    expect(dropped[0]).toMatch(
      /webhook booking\.created http:\/\/127\.0\.0\.1:9\/ dropped \(100 deliveries already waiting for this receiver\)$/,
    );
  });

  it('gives up after the last retry, and on a closed port says why', async () => {
    const warns: string[] = [];
    const sb = await startSandbox({
      port: 0,
      tickSeconds: 0,
      webhookUrls: ['http://127.0.0.1:9/'],
      retryDelaysMs: [5, 5],
      warn: (l) => warns.push(l),
    });
    cleanup.push(sb.close);
    sb.advance();
    await sb.deliveriesSettled();
    expect(warns).toHaveLength(3);
    expect(warns[2]).toMatch(/ ECONNREFUSED \(attempt 3\/3, giving up\)$/);
  });

  it('--tick 0 changes nothing by itself; close() stops the ticking', async () => {
    // The sandbox's clock of ticks is faked (its server is real): ten tick periods pass at once, and
    // after close() ten more change nothing, with no wait on the wall clock.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const idle = await startSandbox({ port: 0, tickSeconds: 0, bookings: 5 });
      const busy = await startSandbox({ port: 0, tickSeconds: 0.02, bookings: 5 });
      vi.advanceTimersByTime(200);
      expect(idle.bookings()).toHaveLength(5);
      await busy.close();
      const after = busy.bookings().length;
      expect(after).toBeGreaterThan(5);
      vi.advanceTimersByTime(200);
      expect(busy.bookings()).toHaveLength(after);
      await idle.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
