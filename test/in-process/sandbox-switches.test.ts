import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { Switches } from '../../src/sandbox/switches';
import { get } from '../helpers/sandbox-http';

let open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});
async function sandbox(opts: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const s = await startSandbox({ port: 0, tickSeconds: 0, bookings: 10, ...opts });
  open.push(s);
  return s;
}

describe('switches', () => {
  it('--latency delays every response', async () => {
    const sb = await sandbox({ latencyMs: 150 });
    const t = performance.now();
    expect((await get(sb, '/api/v1/me')).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(140);
  });

  it('close() does not wait for the added latency', async () => {
    const sb = await sandbox({ latencyMs: 10_000 });
    // Expect: 100-continue: node's server answers "100 Continue" once it has the request and hands it
    // to the handler, so the request is known to be waiting in the latency when close() is called.
    const socket = connect(Number(new URL(sb.url).port), '127.0.0.1');
    socket.on('error', () => {});
    const pending = new Promise((r) => socket.once('close', r));
    const handled = new Promise((r) => socket.once('data', r));
    socket.write(`GET /api/v1/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${sb.apiKey}\r\nExpect: 100-continue\r\n\r\n`);
    await handled;
    const t = performance.now();
    await sb.close();
    expect(performance.now() - t).toBeLessThan(1_000);
    await pending;
  });

  it('--fail-rate answers that share with 503 and a JSON error, the same way for the same seed', async () => {
    const run = async () => {
      const sb = await sandbox({ failRate: 0.3, seed: 'f' });
      const statuses: number[] = [];
      for (let i = 0; i < 200; i++) {
        const r = await get(sb, '/api/v1/me');
        statuses.push(r.status);
        if (r.status === 503) expect(r.json.error.code).toBe('service_unavailable');
      }
      return statuses;
    };
    const first = await run();
    const failed = first.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(35);
    expect(failed).toBeLessThan(85);
    expect(first.every((s) => s === 200 || s === 503)).toBe(true);
    expect(await run()).toEqual(first);
    const none = await sandbox({ failRate: 0 });
    for (let i = 0; i < 20; i++) expect((await get(none, '/api/v1/me')).status).toBe(200);
    const all = await sandbox({ failRate: 1 });
    expect((await get(all, '/api/v1/me')).status).toBe(503);
  });

  it('--rate-limit answers 429 with Retry-After beyond n requests per second, then recovers', async () => {
    const sb = await sandbox({ rateLimit: 3 });
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof get>> | undefined;
    for (let i = 0; i < 5; i++) {
      const r = await get(sb, '/api/v1/bookings');
      statuses.push(r.status);
      if (r.status === 429) limited = r;
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
    expect(limited!.headers.get('retry-after')).toBe('1');
    expect(limited!.json.error).toEqual({ code: 'rate_limited', message: 'rate limit of 3 requests per second exceeded; retry after 1s' });
  });

  it('the rate limit recovers once its second has passed (an injected clock, no waiting)', () => {
    let now = 10_000;
    const switches = new Switches({ rateLimit: 3, seed: 's' }, () => now);
    const statuses = () => Array.from({ length: 4 }, () => switches.gate()?.status ?? 200);
    expect(statuses()).toEqual([200, 200, 200, 429]);
    now += 999;
    expect(switches.gate()?.headers['retry-after']).toBe('1');
    now += 1;
    expect(statuses()).toEqual([200, 200, 200, 429]);
  });

  it('logs one line per request', async () => {
    const lines: string[] = [];
    const sb = await sandbox({ log: (l) => lines.push(l) });
    await get(sb, '/api/v1/bookings?limit=2');
    await get(sb, '/api/v1/me', null);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z GET \/api\/v1\/bookings\?limit=2 200 \d+ms$/);
    expect(lines[1]).toMatch(/ GET \/api\/v1\/me 401 \d+ms$/);
  });

  it('a port in use is a one-line failure (exit 1)', async () => {
    const sb = await sandbox({});
    await expect(startSandbox({ port: sb.port })).rejects.toMatchObject({
      exitCode: 1,
      message: `cannot listen on 127.0.0.1:${sb.port}: the port is in use.`,
    });
  });
});
