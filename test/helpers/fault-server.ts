// A loopback server of the booking API that misbehaves on cue: each request can be answered with a
// scripted fault (429 with Retry-After, 5xx, a reset mid-body, a stall, a non-JSON or truncated body,
// a redirect) instead of its page, so that spawned-CLI tests can prove what survives and what fails
// cleanly. A second server on another port stands for "another origin" and records what reaches it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bookingJson } from './shape-server';

export type Fault =
  | { kind: 'status'; status: number; retryAfter?: string; body?: string; contentType?: string }
  /** Headers and half the body, then a TCP reset (ECONNRESET mid-body). */
  | { kind: 'reset' }
  /** Headers and half the body, then silence: the body never completes. */
  | { kind: 'stall-body' }
  /** No answer at all until the server is closed. */
  | { kind: 'stall' }
  | { kind: 'non-json' }
  /** 200 whose JSON is cut in half, with a Content-Length that matches the cut (a "complete" response). */
  | { kind: 'truncated' }
  | { kind: 'redirect'; location: string; status?: number }
  /** The normal answer, late. */
  | { kind: 'delay'; ms: number };

export type Route = 'list' | 'get' | 'me' | 'event-types' | 'other';

export interface FaultRequest {
  route: Route;
  /** List page number (offset / page size); 0 for other routes. */
  page: number;
  /** How many times this route and page were asked before (0 on the first try). */
  attempt: number;
  /** The request's path, without the query. */
  path?: string;
}

export interface Recorded extends FaultRequest {
  url: string;
  host: string;
  authorization: string | undefined;
  at: number;
  fault?: Fault['kind'];
}

/** Overrides of where page N says the next page is (the cursor otherwise goes in meta.next_cursor). */
export interface NextOverride {
  /** Replaces meta.next_cursor (a cursor, or a URL the client must treat as a page URL). */
  next?: string;
  /** Sent as `Link: <…>; rel="next"`. */
  link?: string;
}

export interface FaultServerOptions {
  count?: number;
  pageSize?: number;
  apiKey?: string;
  rawItem?: (i: number) => string;
  /** Raw JSON for GET /bookings/{uid}'s data and GET /me's data; defaults are plain. */
  rawRecord?: string;
  faults?: (req: FaultRequest) => Fault | undefined;
  nextOverride?: (page: number) => NextOverride | undefined;
}

export interface FaultServer {
  url: string;
  apiKey: string;
  requests: Recorded[];
  /** Replaces the fault script (e.g. to heal the server before a resumed run). */
  setFaults(f: FaultServerOptions['faults']): void;
  /** The opaque cursor of page N, as the server writes it. */
  cursorOf(page: number): string;
  close(): Promise<void>;
}

const cursorFor = (offset: number) => Buffer.from(`offset:${offset}`).toString('base64url');
const offsetOf = (c: string) => Number(/^offset:(\d+)$/.exec(Buffer.from(c, 'base64url').toString())?.[1] ?? NaN);

/** uid of item i, as bookingJson writes it. */
export const uidOf = (i: number) => `bk_${String(i).padStart(4, '0')}`;
export const uidsUpTo = (n: number, from = 0) => Array.from({ length: n - from }, (_, k) => uidOf(from + k));

export async function startFaultServer(opts: FaultServerOptions = {}): Promise<FaultServer> {
  const count = opts.count ?? 100;
  const pageSize = opts.pageSize ?? 20;
  const apiKey = opts.apiKey ?? 'sk_test_fault_0000';
  const item = opts.rawItem ?? bookingJson;
  let faults = opts.faults;
  const requests: Recorded[] = [];
  const attempts = new Map<string, number>();

  const pageBody = (page: number): { body: string; link?: string } => {
    const offset = page * pageSize;
    const end = Math.min(offset + pageSize, count);
    const items: string[] = [];
    for (let i = offset; i < end; i++) items.push(item(i));
    const override = opts.nextOverride?.(page);
    const next = override?.next ?? (end < count ? cursorFor(end) : undefined);
    return { body: `{"data":[${items.join(',')}],"meta":{"next_cursor":${next === undefined ? 'null' : JSON.stringify(next)}}}`, link: override?.link };
  };

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const route: Route =
      url.pathname === '/api/v1/bookings' ? 'list'
      : url.pathname.startsWith('/api/v1/bookings/') ? 'get'
      : url.pathname === '/api/v1/me' ? 'me'
      : url.pathname === '/api/v1/event-types' ? 'event-types'
      : 'other';
    const cursor = url.searchParams.get('cursor');
    const page = route === 'list' && cursor !== null ? offsetOf(cursor) / pageSize : 0;
    const key = `${route} ${page}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const fault = faults?.({ route, page, attempt, path: url.pathname });
    requests.push({ route, page, attempt, url: req.url ?? '', host: req.headers.host ?? '', authorization: req.headers.authorization, at: Date.now(), fault: fault?.kind });

    const answer = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
      res.end(body);
    };
    let ok: { status: number; body: string; headers?: Record<string, string> };
    if (req.headers.authorization !== `Bearer ${apiKey}`) ok = { status: 401, body: '{"error":{"message":"invalid API key"}}' };
    else if (route === 'list' && Number.isInteger(page) && page >= 0) {
      const { body, link } = pageBody(page);
      ok = { status: 200, body, headers: link ? { link: `<${link}>; rel="next"` } : {} };
    } else if (route === 'get') ok = { status: 200, body: `{"data":${opts.rawRecord ?? item(0)}}` };
    else if (route === 'me') ok = { status: 200, body: `{"data":${opts.rawRecord ?? '{"id":1,"name":"Fault Owner","email":"owner@example.com"}'}}` };
    else if (route === 'event-types') ok = { status: 200, body: '{"data":[{"id":1,"slug":"30min","title":"30 min"}]}' };
    else ok = { status: 404, body: '{"message":"no such page"}' };

    if (!fault) return answer(ok.status, ok.body, ok.headers);
    switch (fault.kind) {
      case 'status':
        return answer(fault.status, fault.body ?? `{"message":"injected ${fault.status}"}`, {
          ...(fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {}),
          ...(fault.contentType ? { 'content-type': fault.contentType } : {}),
        });
      case 'reset':
      case 'stall-body': {
        const bytes = Buffer.from(ok.body);
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes.length) });
        // Half the body, flushed; then either a RST or nothing at all.
        res.write(bytes.subarray(0, bytes.length >> 1), () => {
          if (fault.kind === 'reset') setTimeout(() => req.socket.resetAndDestroy(), 20);
        });
        return;
      }
      case 'stall':
        return;
      case 'non-json':
        return answer(200, '<html><body><h1>Gateway says hi</h1></body></html>', { 'content-type': 'text/html' });
      case 'truncated':
        return answer(200, ok.body.slice(0, ok.body.length >> 1));
      case 'redirect':
        res.writeHead(fault.status ?? 302, { location: fault.location, 'content-length': '0' });
        return res.end();
      case 'delay':
        return void setTimeout(() => answer(ok.status, ok.body, ok.headers), fault.ms);
    }
  };

  const { url, close } = await listen(createServer(handler));
  return { url, apiKey, requests, setFaults: (f) => void (faults = f), cursorOf: (p) => cursorFor(p * pageSize), close };
}

export interface OtherOrigin {
  url: string;
  /** Every request that reached it, with its Authorization header (which must never be there). */
  requests: { url: string; authorization: string | undefined }[];
  close(): Promise<void>;
}

/** Another origin (another port): answers every GET with a plausible page, so following it would show. */
export async function startOtherOrigin(): Promise<OtherOrigin> {
  const requests: OtherOrigin['requests'] = [];
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"data":[${bookingJson(9999)}],"meta":{"next_cursor":null}}`);
  });
  const { url, close } = await listen(server);
  return { url, requests, close };
}

async function listen(server: Server): Promise<{ url: string; close(): Promise<void> }> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
