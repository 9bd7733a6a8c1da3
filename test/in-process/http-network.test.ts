// What only a real socket shows: a connection cut in the middle of a body, a server that never
// answers, a closed port, connection reuse. Loopback servers only; no proxy (an injected Agent).
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Agent } from 'undici';
import { createHttpClient } from '../../src/http/client';
import type { GlobalOptions } from '../../src/context';
import { testIO } from '../../src/output/io';
import { failure } from '../helpers/http-mock';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  await Promise.all(cleanups.splice(0).map((f) => f()));
});

async function serve(handler: (res: ServerResponse, n: number) => void): Promise<{ url: string; sockets: () => number }> {
  let n = 0;
  let sockets = 0;
  const server: Server = createServer((_req, res) => handler(res, ++n));
  server.on('connection', () => sockets++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => (server.closeAllConnections(), server.close(resolve))));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, sockets: () => sockets };
}

function client(baseUrl: string, globals: Partial<GlobalOptions> = {}) {
  const dispatcher = new Agent();
  cleanups.push(() => dispatcher.close());
  return createHttpClient({
    connection: { profile: 'default', baseUrl: new URL(baseUrl), apiKey: 'k', keySource: 'env' },
    globals: { profile: 'default', noColor: true, timeoutMs: 5_000, retries: 3, debug: false, quiet: true, allowHttp: false, ...globals },
    io: testIO(),
    signal: new AbortController().signal,
    dispatcher,
    retryBaseMs: 1,
  });
}

const BODY = JSON.stringify({ data: Array.from({ length: 3000 }, (_, i) => ({ uid: `bk_${i}` })) });

describe('over real sockets', () => {
  it('a connection reset mid-body repeats the whole request; the caller sees one complete body', async () => {
    for (const framing of ['content-length', 'chunked'] as const) {
      const srv = await serve((res, n) => {
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(framing === 'content-length' ? { 'content-length': Buffer.byteLength(BODY) } : {}),
        });
        if (n === 1) {
          res.write(BODY.slice(0, 1000));
          setTimeout(() => res.socket?.destroy(), 10);
        } else res.end(BODY);
      });
      const res = await client(srv.url).get('/api/v1/bookings');
      expect(res.text()).toBe(BODY);
      expect((res.json() as { data: unknown[] }).data).toHaveLength(3000);
    }
  });

  it('a server that never answers is a timeout naming the request', async () => {
    const srv = await serve(() => {});
    const e = await failure(client(srv.url, { timeoutMs: 150 }).get('/api/v1/bookings', { query: { limit: 5 } }));
    expect(e).toMatchObject({ message: 'GET /api/v1/bookings?limit=5: no response within 0.15s', exitCode: 1 });
  });

  it('a body that stalls half-way is a timeout too', async () => {
    const srv = await serve((res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
    });
    const e = await failure(client(srv.url, { timeoutMs: 150 }).get('/api/v1/me'));
    expect(e.message).toBe('GET /api/v1/me: no response within 0.15s');
  });

  it('a closed port: cannot connect, with the address', async () => {
    const srv = await serve(() => {});
    await cleanups.pop()!();
    const port = new URL(srv.url).port;
    const e = await failure(client(srv.url, { retries: 0 }).get('/api/v1/me'));
    expect(e).toMatchObject({ message: `GET /api/v1/me: cannot connect to 127.0.0.1:${port} (ECONNREFUSED)`, exitCode: 1 });
  });

  it('reuses kept-alive connections across requests', async () => {
    const srv = await serve((res) => res.end('{}'));
    const c = client(srv.url);
    for (let i = 0; i < 6; i++) await c.get('/api/v1/me');
    // undici may open a second socket while the first finishes a response; never one per request.
    expect(srv.sockets()).toBeLessThanOrEqual(2);
  });
});
