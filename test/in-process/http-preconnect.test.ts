// The first connection, opened before the HTTP client loads (src/http/preconnect.ts): used once, for
// the base URL's origin only; a socket that failed is retried like any lost connection; never opened
// where the client would refuse to go or where a proxy is the first hop. Loopback servers only.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createHttpClient } from '../../src/http/client';
import { preconnect } from '../../src/http/preconnect';
import { testIO } from '../../src/output/io';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

/** A JSON server counting the connections it accepted; `dropFirst` cuts the first one at once. */
async function serve(dropFirst = false): Promise<{ url: URL; connections: () => number }> {
  let connections = 0;
  const server: Server = createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: { path: req.url } }));
  });
  server.on('connection', (socket: Socket) => {
    if (++connections === 1 && dropFirst) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`), connections: () => connections };
}

function clientWith(baseUrl: URL, early: Awaited<ReturnType<typeof preconnect>>) {
  const client = createHttpClient({
    connection: { profile: 'default', baseUrl, apiKey: 'k', keySource: 'env' },
    globals: { profile: 'default', noColor: true, timeoutMs: 5_000, retries: 2, debug: false, quiet: true, allowHttp: false },
    io: testIO(),
    signal: new AbortController().signal,
    retryBaseMs: 1,
    early,
  });
  cleanups.push(() => client.close());
  return client;
}

describe('preconnect', () => {
  it('opens the first connection early, and the client sends every request over it', async () => {
    const srv = await serve();
    const early = await preconnect(srv.url, false, {});
    expect(early).toBeDefined();
    const client = clientWith(srv.url, early);
    expect((await client.get('/api/v1/me')).json()).toEqual({ data: { path: '/api/v1/me' } });
    expect((await client.get('/api/v1/bookings')).json()).toEqual({ data: { path: '/api/v1/bookings' } });
    expect(srv.connections()).toBe(1);
    expect(early!.take()).toBeUndefined();
  });

  it('an early connection the server cut is retried with a new one', async () => {
    const srv = await serve(true);
    const client = clientWith(srv.url, await preconnect(srv.url, false, {}));
    expect((await client.get('/api/v1/me')).json()).toEqual({ data: { path: '/api/v1/me' } });
    expect(srv.connections()).toBe(2);
  });

  it('opens nothing when a proxy variable is set (but a loopback base URL is never proxied), or for plain http:// to a host the client refuses', async () => {
    const srv = await serve();
    for (const name of ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy']) {
      expect(await preconnect(new URL('https://192.0.2.1/'), false, { [name]: 'http://127.0.0.1:9' })).toBeUndefined();
      const early = await preconnect(srv.url, false, { [name]: 'http://127.0.0.1:9' });
      expect(early?.hostname).toBe('127.0.0.1');
      early?.take()?.destroy();
    }
    expect(await preconnect(new URL('http://192.0.2.1/'), false, {})).toBeUndefined();
  });
});
