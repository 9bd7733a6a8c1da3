// The fake booking service's core, once for every server that stands in for the real service. Built on
// by `booking sandbox` (routes.ts: its seeded world, shapes, switches and error bodies) and by the test
// servers in test/helpers: shape-server (lists in many shapes), fault-server (faults on cue) and
// zoo-server (the list shapes of public APIs). Each of them adds only its own answers; the life of the
// server on a port, the key check, the four endpoints, JSON replies, opaque cursors and the hooks that
// record or log requests live here.
import { timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenFailure } from '../base/listen-error';

export interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

/** The service's four GET endpoints; anything else is 'other'. */
export type Endpoint = 'list' | 'get' | 'me' | 'event-types' | 'other';

export interface FakeRequest {
  req: IncomingMessage;
  /** The request URL, absolute on `origin`. */
  url: URL;
  endpoint: Endpoint;
  /** For 'get': the uid's path segment as sent, still percent-encoded. */
  segment?: string;
  /** The origin the client used (so a next link keeps its host name), else the service's own. */
  origin: string;
}

interface FakeApi {
  apiKey: string;
  /** Sees every request first, before any answer: to record or log it. */
  onRequest?: (r: FakeRequest, res: ServerResponse) => void;
  /** Runs before the key check; a reply answers instead (the sandbox's latency, outages, rate limit). */
  gate?: (r: FakeRequest) => Promise<Reply | undefined> | Reply | undefined;
  /** The answer to a request without `Authorization: Bearer <apiKey>`. */
  unauthorized?: Reply;
  /** The answer to a request with the key. */
  answer: (r: FakeRequest) => Promise<Reply> | Reply;
  /** Writes the reply; by default as it is (a fault server may write something else instead). */
  send?: (res: ServerResponse, reply: Reply, r: FakeRequest) => void;
  /** Who is at fault in the 500 of an answer that threw: "<label> bug: …". */
  label?: string;
}

export interface ListenAt {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0, any free port. */
  port?: number;
}

export interface FakeService {
  /** Base URL, e.g. http://127.0.0.1:4010 */
  url: string;
  port: number;
  close(): Promise<void>;
}

const UNAUTHORIZED: Reply = { status: 401, body: '{"error":{"message":"invalid API key"}}' };

/** Starts the service of api: the key check, then its answer, as JSON. */
export async function startFakeService(api: FakeApi, at: ListenAt = {}): Promise<FakeService> {
  let base = '';
  const service = await serve(
    apiHandler(api, () => base),
    at,
  );
  base = service.url;
  return service;
}

function apiHandler(api: FakeApi, base: () => string): (req: IncomingMessage, res: ServerResponse) => void {
  const send = api.send ?? writeReply;
  return (req, res) => {
    const origin = originOf(req, base());
    // Node passes on request targets that URL rejects (`GET http://[x/ HTTP/1.1`): answered 500 below,
    // where the sandbox always answered them, rather than thrown out of the server.
    let url: URL;
    let unreadable: unknown;
    try {
      url = new URL(req.url ?? '/', origin);
    } catch (err) {
      url = new URL('/', origin);
      unreadable = err;
    }
    const r: FakeRequest = { req, url, origin, ...routeOf(url.pathname) };
    api.onRequest?.(r, res);
    const internal = (err: unknown): Reply => ({
      status: 500,
      body: JSON.stringify({
        error: { code: 'internal', message: `${api.label ?? 'fake service'} bug: ${err instanceof Error ? err.message : String(err)}` },
      }),
    });
    void Promise.resolve()
      .then(async () => {
        const refusal = await api.gate?.(r);
        if (refusal) return refusal;
        if (!hasKey(req.headers.authorization, api.apiKey)) return api.unauthorized ?? UNAUTHORIZED;
        if (unreadable) throw unreadable;
        return api.answer(r);
      })
      .catch(internal)
      .then((reply) => send(res, reply, r));
  };
}

/** A server for handler on loopback (or at), until close(). A failure to listen is the CLI's error. */
export async function serve(handler: (req: IncomingMessage, res: ServerResponse) => void, at: ListenAt = {}): Promise<FakeService> {
  const host = at.host ?? '127.0.0.1';
  const server = createServer(handler);
  await new Promise<void>((resolve, reject) => {
    const onError = (err: NodeJS.ErrnoException) => reject(listenFailure(err, host, `${urlHost(host)}:${at.port ?? 0}`));
    server.once('error', onError);
    server.listen(at.port ?? 0, host, () => {
      server.off('error', onError);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${urlHost(host)}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Keep-alive connections would hold close() open until their idle timeout.
        server.closeAllConnections();
      }),
  };
}

/** Writes reply as JSON with its length; nothing when the client has gone meanwhile. */
export function writeReply(res: ServerResponse, reply: Reply): void {
  if (res.destroyed) return;
  const body = Buffer.from(reply.body);
  res.writeHead(reply.status, { 'content-type': 'application/json', 'content-length': String(body.length), ...reply.headers });
  res.end(body);
}

/** Which endpoint a path names; a trailing slash is ignored. */
function routeOf(rawPath: string): { endpoint: Endpoint; segment?: string } {
  const path = rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath;
  if (path === '/api/v1/me') return { endpoint: 'me' };
  if (path === '/api/v1/event-types') return { endpoint: 'event-types' };
  if (path === '/api/v1/bookings') return { endpoint: 'list' };
  const one = /^\/api\/v1\/bookings\/([^/]+)$/.exec(path);
  return one ? { endpoint: 'get', segment: one[1]! } : { endpoint: 'other' };
}

/** Compared in constant time, so that the time an answer takes tells nothing about the key. */
function hasKey(header: string | undefined, apiKey: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(apiKey);
  return given.length === want.length && timingSafeEqual(given, want);
}

function originOf(req: IncomingMessage, base: string): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : base;
}

/** How the host appears in a URL: a wildcard address becomes loopback, IPv6 gets brackets. */
function urlHost(host: string): string {
  if (host === '0.0.0.0') return '127.0.0.1';
  if (host === '::') return '[::1]';
  return host.includes(':') ? `[${host}]` : host;
}

const CURSOR_PREFIX = 'sbx1:';

/** An opaque cursor for position n: base64url, so scripts treat it as a token, not a number to compute with. */
export function encodeCursor(n: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${n}`).toString('base64url');
}

/** The position a cursor names, or undefined when it is not one of ours. */
export function decodeCursor(cursor: string): number | undefined {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(cursor)) return undefined;
  const m = /^sbx1:(0|[1-9]\d{0,8})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  if (!m) return undefined;
  const n = Number(m[1]);
  return encodeCursor(n) === cursor ? n : undefined;
}
