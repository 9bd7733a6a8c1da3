// Retries as the user experiences them: which failures are repeated, how long the client waits, and
// what is left when it gives up. Waits are recorded by the rig, not slept.
import { afterEach, describe, expect, it } from 'vitest';
import { backoffMs, retryAfterMs } from '../../src/http/retry';
import { sleep, type Sleep } from '../../src/http/wait';
import { closeRigs, failure, rig, type Rig } from '../helpers/http-mock';
import { until } from '../helpers/until';

let r: Rig | undefined;
afterEach(closeRigs);

describe('retries of a GET', () => {
  it('repeats 502, 503 and 504 and returns the success', async () => {
    const statuses = [502, 503, 504];
    r = rig((_req, n) => (n <= 3 ? { status: statuses[n - 1], body: {} } : { body: { ok: true } }));
    const res = await r.client.get('/api/v1/me');
    expect(res.json()).toEqual({ ok: true });
    expect(r.seen()).toHaveLength(4);
    expect(r.delays).toHaveLength(3);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    const date = new Date(Date.now() + 3_000).toUTCString();
    r = rig((_req, n) =>
      n === 1
        ? { status: 429, headers: { 'retry-after': '2' } }
        : n === 2
          ? { status: 503, headers: { 'retry-after': date } }
          : { body: {} },
    );
    await r.client.get('/api/v1/me');
    expect(r.delays[0]).toBe(2_000);
    expect(r.delays[1]).toBeGreaterThan(1_000);
    expect(r.delays[1]).toBeLessThanOrEqual(3_000);
  });

  it('backs off exponentially with jitter when the server gives no Retry-After', () => {
    expect(backoffMs(0, 500, () => 0)).toBe(250);
    expect(backoffMs(0, 500, () => 1)).toBe(500);
    expect(backoffMs(3, 500, () => 1)).toBe(4_000);
    expect(backoffMs(20, 500, () => 1)).toBe(20_000);
    expect(retryAfterMs('soon')).toBeUndefined();
    expect(retryAfterMs('Thu, 01 Jan 1970 00:00:00 GMT')).toBe(0);
  });

  it('a 429 that persists is a rate-limit error (exit 5) with the server message', async () => {
    r = rig(() => ({ status: 429, body: { message: 'slow down' } }));
    const e = await failure(r.client.get('/api/v1/bookings'));
    expect(e).toMatchObject({ message: 'GET /api/v1/bookings: 429 Too Many Requests: slow down (after 3 retries)', exitCode: 5 });
    expect(r.seen()).toHaveLength(4);
  });

  it('does not sleep through a Retry-After of an hour: it fails at once and says so', async () => {
    r = rig(() => ({ status: 429, headers: { 'retry-after': '3600' } }));
    const e = await failure(r.client.get('/api/v1/bookings'));
    expect(e.exitCode).toBe(5);
    expect(e.hint).toContain('wait 3600s');
    expect(r.seen()).toHaveLength(1);
  });

  it('--retries 0 and statuses outside the list are not repeated', async () => {
    r = rig(() => ({ status: 503, body: { detail: 'maintenance' } }), { globals: { retries: 0 } });
    expect(await failure(r.client.get('/api/v1/me'))).toMatchObject({
      message: 'GET /api/v1/me: 503 Service Unavailable: maintenance',
      exitCode: 1,
    });
    r = rig(() => ({ status: 500, body: {} }));
    await failure(r.client.get('/api/v1/me'));
    expect(r.seen()).toHaveLength(1);
  });

  it('repeats a request after a connection reset', async () => {
    r = rig((_req, n) => (n === 1 ? { error: 'ECONNRESET' } : { body: { ok: true } }));
    expect((await r.client.get('/api/v1/me')).json()).toEqual({ ok: true });
    expect(r.seen()).toHaveLength(2);
  });

  it('Ctrl-C during a wait is an interruption (exit 130)', async () => {
    // The client's own sleep, told apart only by saying when it has begun: Ctrl-C comes then.
    let waiting = false;
    const sleepSaying: Sleep = (ms, signal) => ((waiting = true), sleep(ms, signal));
    r = rig(() => ({ status: 503 }), { client: { sleep: sleepSaying, retryBaseMs: 60_000 } });
    const pending = failure(r.client.get('/api/v1/me'));
    await until(() => waiting, 'the wait before a retry');
    r.abort.abort();
    expect((await pending).exitCode).toBe(130);
  });
});
