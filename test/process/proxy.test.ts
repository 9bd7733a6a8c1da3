// Proxies from the environment (HTTP_PROXY / HTTPS_PROXY / NO_PROXY), as a user behind one sets them:
// requests tunnel through the proxy with CONNECT, NO_PROXY goes direct, a dead proxy is one line, and
// a loopback base URL never goes through a proxy (the key would travel in clear to it).
import { createServer as createNetServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { runCli, tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

interface Proxy {
  url: string;
  /** CONNECT targets, in order. */
  tunnels: string[];
  /** Every connection made to the proxy, whatever it said. */
  connections: number;
  close(): Promise<void>;
}

/** The made-up host name the tests reach through the proxy, which maps it to 127.0.0.1. */
const REMOTE = 'booking-api.test';

/** A CONNECT proxy on 127.0.0.1: answers 200, then pipes bytes both ways. */
async function startProxy(): Promise<Proxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createNetServer((client) => {
    proxy.connections++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.once('data', (head) => {
      const m = /^CONNECT ([^\s:]+):(\d+) HTTP\/1\.1\r\n/.exec(head.toString('latin1'));
      if (!m) return void client.end('HTTP/1.1 405 Method Not Allowed\r\n\r\n');
      tunnels.push(`${m[1]}:${m[2]}`);
      const upstream = connect(Number(m[2]), m[1] === REMOTE ? '127.0.0.1' : m[1], () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.pipe(client).pipe(upstream);
      });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.on('error', () => client.destroy());
      client.on('error', () => upstream.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxy: Proxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    connections: 0,
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  return proxy;
}

describe('through a proxy from the environment', () => {
  let api: ShapeServer;
  let proxy: Proxy;
  const cfg = tempConfigDir();
  /** The server under a name that is not loopback, so that the proxy rules apply to it. */
  const remote = () => api.url.replace('127.0.0.1', REMOTE);
  const env = (extra: Record<string, string>) => ({
    BOOKING_CONFIG_DIR: cfg.dir,
    BOOKING_BASE_URL: remote(),
    BOOKING_API_KEY: api.apiKey,
    ...extra,
  });
  beforeAll(async () => {
    api = await startShapeServer({ shape: 'data-meta', count: 12, maxPage: 5 });
    proxy = await startProxy();
  });
  afterAll(async () => {
    await proxy.close();
    await api.close();
    cfg.cleanup();
  });

  it.each(['HTTP_PROXY', 'http_proxy'])('%s: every page goes through the tunnel', async (name) => {
    proxy.tunnels.length = 0;
    const r = await runMain(['bookings', 'list', '-o', 'ndjson', '--allow-http'], { env: env({ [name]: proxy.url }) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(12);
    expect(proxy.tunnels.length).toBeGreaterThanOrEqual(1);
    expect(new Set(proxy.tunnels)).toEqual(new Set([new URL(remote()).host]));
  });

  it('the built program (bin/booking.js and dist/) tunnels through the proxy too', async () => {
    // The build loads undici (dist/vendor/undici.cjs, for its proxy agent) only when a proxy is set.
    const list = await runCli(['bookings', 'list', '-o', 'ndjson', '--allow-http'], { env: env({ HTTP_PROXY: proxy.url }) });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout.trimEnd().split('\n')).toHaveLength(12);
    const before = proxy.tunnels.length;
    const me = await runCli(['whoami', '--allow-http', '--retries', '0'], { env: env({ http_proxy: proxy.url }) });
    expect(me.code, me.stderr).toBe(0);
    expect(proxy.tunnels.slice(before)).toEqual([`${REMOTE}:${new URL(api.url).port}`]);
  });

  it('HTTPS_PROXY is for https:// URLs only (as with curl): an http:// base URL goes direct', async () => {
    proxy.connections = 0;
    const r = await runMain(['whoami', '--allow-http', '--retries', '0'], { env: env({ HTTPS_PROXY: proxy.url }) });
    // Direct, so the made-up name does not resolve: the proxy was not asked.
    expect(r.stderr).toMatch(/cannot resolve host booking-api\.test/);
    expect(proxy.connections).toBe(0);
  });

  it('NO_PROXY naming the host: straight to the server', async () => {
    proxy.connections = 0;
    const r = await runMain(['whoami', '--allow-http', '--retries', '0'], { env: env({ HTTP_PROXY: proxy.url, NO_PROXY: REMOTE }) });
    expect(r.stderr).toMatch(/cannot resolve host booking-api\.test/);
    expect(proxy.connections).toBe(0);
  });

  it.each(['127.0.0.1', '127.0.0.2'])('a loopback base URL (%s) never goes through the proxy, whatever the variables say', async (host) => {
    proxy.connections = 0;
    const base = api.url.replace('127.0.0.1', host);
    const all = { HTTP_PROXY: proxy.url, http_proxy: proxy.url, HTTPS_PROXY: proxy.url, https_proxy: proxy.url, BOOKING_BASE_URL: base };
    const r = await runMain(['whoami', '--retries', '0'], { env: env(all) });
    // 127.0.0.2 has no server on it: a connection error, but still not through the proxy.
    if (host === '127.0.0.1') expect(r.code, r.stderr).toBe(0);
    else expect(r.stderr).not.toMatch(/proxy/);
    const list = await runMain(['bookings', 'list', '-o', 'ndjson', '--retries', '0'], { env: env(all) });
    if (host === '127.0.0.1') expect(list.stdout.trimEnd().split('\n')).toHaveLength(12);
    expect(proxy.connections).toBe(0);
  });

  it('a proxy that is not there: exit 1, one line naming the request', async () => {
    const dead = await startProxy();
    await dead.close();
    const r = await runMain(['whoami', '--retries', '0', '--allow-http'], { env: env({ HTTP_PROXY: dead.url }) });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      `error: GET /api/v1/me: cannot connect to the proxy at ${new URL(dead.url).host} (ECONNREFUSED; from HTTP_PROXY)\n`,
    );
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
