import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { BOOKING_STATUSES } from '../../src/sandbox/data';
import { get, walk } from '../helpers/sandbox-http';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ port: 0, tickSeconds: 0 });
});
afterAll(() => sb.close());

describe('auth', () => {
  it.each([
    ['no key', null],
    ['a wrong key', 'sk_test_wrong'],
    ['a longer key', `${'sk_test_sandbox'}x`],
  ])('answers 401 with a JSON error for %s, on every path', async (_what, key) => {
    for (const path of ['/api/v1/me', '/api/v1/bookings', '/api/v1/bookings/bk_x', '/api/v1/event-types', '/nowhere']) {
      const r = await get(sb, path, key);
      expect(r.status).toBe(401);
      expect(r.headers.get('content-type')).toMatch(/^application\/json/);
      expect(r.json.error.code).toBe('unauthorized');
      expect(r.json.error.message).toMatch(/API key/);
    }
  });

  it('uses the documented defaults for key and secret, or the ones given', async () => {
    expect(sb.apiKey).toBe('sk_test_sandbox');
    expect(sb.secret).toBe('whsec_sandbox');
    const other = await startSandbox({ port: 0, tickSeconds: 0, apiKey: 'sk_mine', secret: 'shh', bookings: 1 });
    try {
      expect((await get(other, '/api/v1/me', 'sk_mine')).status).toBe(200);
      expect((await get(other, '/api/v1/me', 'sk_test_sandbox')).status).toBe(401);
      expect(other.secret).toBe('shh');
    } finally {
      await other.close();
    }
  });
});

describe('endpoints', () => {
  it('GET /api/v1/me returns the key owner wrapped in data', async () => {
    const r = await get(sb, '/api/v1/me');
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual(['data']);
    expect(r.json.data).toMatchObject({ id: expect.any(Number), name: expect.any(String), email: expect.stringMatching(/@/) });
  });

  it("GET /api/v1/event-types lists the owner's event types on one page", async () => {
    const r = await get(sb, '/api/v1/event-types');
    expect(r.status).toBe(200);
    expect(r.json.meta).toEqual({ next_cursor: null });
    expect(r.json.data.map((e: { slug: string }) => e.slug)).toEqual(['15min', '30min', 'consultation', 'intro-call']);
  });

  it('GET /api/v1/bookings/{uid} returns one booking, with the uid percent-decoded', async () => {
    const b = sb.bookings()[3]!;
    const r = await get(sb, `/api/v1/bookings/${b.uid}`);
    expect(r.status).toBe(200);
    expect(r.json.data.uid).toBe(b.uid);
    const encoded = [...b.uid].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('');
    expect((await get(sb, `/api/v1/bookings/${encoded}`)).json.data.uid).toBe(b.uid);
  });

  it('a booking has the documented fields, plain ASCII', async () => {
    const { items } = await walk(sb, '/api/v1/bookings?limit=50');
    for (const b of items) {
      expect(Object.keys(b)).toEqual([
        'id',
        'uid',
        'title',
        'status',
        'start',
        'end',
        'attendee',
        'event_type',
        'no_show',
        'created_at',
        'updated_at',
      ]);
      expect(b.uid).toMatch(/^bk_[a-z2-9]{14}$/);
      expect(BOOKING_STATUSES).toContain(b.status);
      expect(Date.parse(b.end)).toBeGreaterThan(Date.parse(b.start));
      expect(new Date(b.start).toISOString()).toBe(b.start);
      expect(b.attendee).toEqual({ name: expect.any(String), email: expect.stringMatching(/^[a-z.]+@example\.(com|org|net)$/) });
      expect(b.event_type).toEqual({ id: expect.any(Number), slug: expect.any(String) });
    }
    expect(new Set(items.map((b) => b.status))).toEqual(new Set(BOOKING_STATUSES));
  });

  it('unknown uid → 404 JSON error', async () => {
    const r = await get(sb, '/api/v1/bookings/bk_nope');
    expect(r.status).toBe(404);
    expect(r.json.error).toEqual({ code: 'not_found', message: 'booking "bk_nope" not found' });
    expect((await get(sb, '/api/v1/bookings/%E0%A4%A')).status).toBe(400);
  });

  it('unknown paths → 404, other methods → 405 with Allow', async () => {
    for (const path of ['/', '/api/v2/me', '/api/v1/bookings/a/b', '/api/v1/webhooks']) {
      const r = await get(sb, path);
      expect(r.status, path).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    const r = await get(sb, '/api/v1/bookings', sb.apiKey, { method: 'POST' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, HEAD');
    expect(r.json.error.code).toBe('method_not_allowed');
  });
});

describe('GET /api/v1/bookings', () => {
  it('pages 20 by default and caps limit at 50 silently', async () => {
    expect((await get(sb, '/api/v1/bookings')).json.data).toHaveLength(20);
    expect((await get(sb, '/api/v1/bookings?limit=7')).json.data).toHaveLength(7);
    expect((await get(sb, '/api/v1/bookings?limit=1000')).json.data).toHaveLength(50);
  });

  it.each(['0', '-1', 'ten', '2.5', ''])('limit=%j → 400 with a JSON message', async (limit) => {
    const r = await get(sb, `/api/v1/bookings?limit=${limit}`);
    expect(r.status).toBe(400);
    expect(r.json.error.code).toBe('invalid_limit');
    expect(r.json.error.message).toMatch(/at most 50/);
  });

  it('filters by status, one or several, and pages within the filter', async () => {
    const all = sb.bookings();
    for (const status of BOOKING_STATUSES) {
      const { items } = await walk(sb, `/api/v1/bookings?status=${status}&limit=9`);
      expect(items.map((b) => b.uid)).toEqual(all.filter((b) => b.status === status).map((b) => b.uid));
    }
    const { items } = await walk(sb, '/api/v1/bookings?status=pending,cancelled');
    expect(items.length).toBe(all.filter((b) => b.status === 'pending' || b.status === 'cancelled').length);
  });

  it('unknown status → 400 listing the valid ones', async () => {
    const r = await get(sb, '/api/v1/bookings?status=accepted');
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({
      code: 'invalid_status',
      message: 'unknown status "accepted": valid statuses are pending, confirmed, cancelled, completed',
    });
  });

  it.each(['abc', 'c2J4MTox!', Buffer.from('sbx1:01').toString('base64url'), Buffer.from('other:1').toString('base64url')])(
    'bad cursor %j → 400',
    async (cursor) => {
      const r = await get(sb, `/api/v1/bookings?cursor=${encodeURIComponent(cursor)}`);
      expect(r.status).toBe(400);
      expect(r.json.error.code).toBe('invalid_cursor');
    },
  );

  it('writes ids above 2^53 with their exact digits', async () => {
    const { texts, items } = await walk(sb, '/api/v1/bookings?limit=50');
    const ids = texts.flatMap((t) => [...t.matchAll(/"id":(\d+),"uid"/g)].map((m) => BigInt(m[1]!)));
    expect(ids).toHaveLength(items.length);
    const big = ids.filter((id) => id > 2n ** 53n);
    expect(big.length).toBeGreaterThan(10);
    // Not representable as a double: a JSON.parse would change them, so a CLI keeping them is proven.
    for (const id of big) expect(BigInt(Number(id))).not.toBe(id);
    expect(big).toContain(9_007_199_254_740_993n + 2_000n * 2n);
    const one = await get(sb, `/api/v1/bookings/${sb.bookings()[1]!.uid}`);
    expect(one.text).toContain('"id":9007199254744993,');
  });
});

describe('determinism', () => {
  it('the same seed gives the same data; another seed other data', async () => {
    const a = await startSandbox({ port: 0, tickSeconds: 0, seed: 'alpha', bookings: 30 });
    const b = await startSandbox({ port: 0, tickSeconds: 0, seed: 'alpha', bookings: 30 });
    const c = await startSandbox({ port: 0, tickSeconds: 0, seed: 'beta', bookings: 30 });
    try {
      const pages = async (s: Sandbox) => [(await get(s, '/api/v1/me')).text, ...(await walk(s, '/api/v1/bookings?limit=50')).texts];
      expect(await pages(a)).toEqual(await pages(b));
      expect(await pages(a)).not.toEqual(await pages(c));
      expect(a.bookings()).toHaveLength(30);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it('--bookings 4 still has every status; 0 is an empty list', async () => {
    const four = await startSandbox({ port: 0, tickSeconds: 0, bookings: 4, seed: 'x' });
    const none = await startSandbox({ port: 0, tickSeconds: 0, bookings: 0 });
    try {
      expect(new Set((await get(four, '/api/v1/bookings')).json.data.map((b: { status: string }) => b.status))).toEqual(
        new Set(BOOKING_STATUSES),
      );
      expect((await get(none, '/api/v1/bookings')).json).toEqual({ data: [], meta: { next_cursor: null } });
    } finally {
      await Promise.all([four.close(), none.close()]);
    }
  });
});
