// A loopback server of the booking API that misbehaves on cue: each request can be answered with a
// scripted fault (429 with Retry-After, 5xx, a reset mid-body, a stall, a non-JSON or truncated body,
// a redirect) instead of its page, so that spawned-CLI tests can prove what survives and what fails
// cleanly. Built on the sandbox's core, which answers; this adds the faults over its answer. A second
// server on another port stands for "another origin" and records what reaches it.
import type { ServerResponse } from 'node:http';
import {
  decodeCursor,
  encodeCursor,
  serve,
  startFakeService,
  writeReply,
  type Endpoint,
  type FakeRequest,
  type Reply,
} from '../../src/sandbox/core';
import { renderList } from '../../src/sandbox/shapes';
import { bookingJson, nextPageAt, slice } from './numbered-bookings';

export { uidsUpTo } from './numbered-bookings';

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

export interface FaultRequest {
  route: Endpoint;
  /** List page number (offset / page size); 0 for other routes. */
  page: number;
  /** How many times this route and page were asked before (0 on the first try). */
  attempt: number;
  /** The request's path, without the query. */
  path?: string;
}

interface Recorded extends FaultRequest {
  url: string;
  host: string;
  authorization: string | undefined;
  at: number;
  fault?: Fault['kind'];
}

/** Overrides of where page N says the next page is (the cursor otherwise goes in meta.next_cursor). */
interface NextOverride {
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

export async function startFaultServer(opts: FaultServerOptions = {}): Promise<FaultServer> {
  const count = opts.count ?? 100;
  const pageSize = opts.pageSize ?? 20;
  const apiKey = opts.apiKey ?? 'sk_test_fault_0000';
  const item = opts.rawItem ?? bookingJson;
  let faults = opts.faults;
  const requests: Recorded[] = [];
  const attempts = new Map<string, number>();
  /** A list's page number from its cursor (NaN for a cursor not ours); 0 for other routes. */
  const pageOf = ({ endpoint, url }: FakeRequest) => {
    const cursor = url.searchParams.get('cursor');
    return endpoint === 'list' && cursor !== null ? (decodeCursor(cursor) ?? NaN) / pageSize : 0;
  };

  const listPage = (page: number, url: URL): Reply => {
    const { items, next: cursor } = slice({ count, offset: page * pageSize, size: pageSize, item });
    const override = opts.nextOverride?.(page);
    const next = override?.next ?? cursor;
    const { body } = renderList('data-meta', 'bookings', items, next === undefined ? undefined : nextPageAt(url, next));
    return { status: 200, body, headers: override?.link ? { link: `<${override.link}>; rel="next"` } : {} };
  };

  const answer = (r: FakeRequest): Reply => {
    const page = pageOf(r);
    switch (r.endpoint) {
      case 'list':
        return Number.isInteger(page) && page >= 0 ? listPage(page, r.url) : { status: 404, body: '{"message":"no such page"}' };
      case 'get':
        return { status: 200, body: `{"data":${opts.rawRecord ?? item(0)}}` };
      case 'me':
        return { status: 200, body: `{"data":${opts.rawRecord ?? '{"id":1,"name":"Fault Owner","email":"owner@example.com"}'}}` };
      case 'event-types':
        return { status: 200, body: '{"data":[{"id":1,"slug":"30min","title":"30 min"}]}' };
      default:
        return { status: 404, body: '{"message":"no such page"}' };
    }
  };

  // The fault is chosen once the core's answer is ready (the 401 included), and the request recorded then.
  const send = (res: ServerResponse, ok: Reply, r: FakeRequest) => {
    const route = r.endpoint;
    const page = pageOf(r);
    const key = `${route} ${page}`;
    const attempt = attempts.get(key) ?? 0;
    attempts.set(key, attempt + 1);
    const fault = faults?.({ route, page, attempt, path: r.url.pathname });
    const { req } = r;
    requests.push({
      route,
      page,
      attempt,
      url: req.url ?? '',
      host: req.headers.host ?? '',
      authorization: req.headers.authorization,
      at: Date.now(),
      fault: fault?.kind,
    });
    if (fault) answerWith(fault, ok, r, res);
    else writeReply(res, ok);
  };

  const { url, close } = await startFakeService({ apiKey, answer, send });
  return { url, apiKey, requests, setFaults: (f) => void (faults = f), cursorOf: (p) => encodeCursor(p * pageSize), close };
}

function answerWith(fault: Fault, ok: Reply, { req }: FakeRequest, res: ServerResponse): void {
  switch (fault.kind) {
    case 'status':
      writeReply(res, {
        status: fault.status,
        body: fault.body ?? `{"message":"injected ${fault.status}"}`,
        headers: {
          ...(fault.retryAfter !== undefined ? { 'retry-after': fault.retryAfter } : {}),
          ...(fault.contentType ? { 'content-type': fault.contentType } : {}),
        },
      });
      return;
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
      writeReply(res, {
        status: 200,
        body: '<html><body><h1>Gateway says hi</h1></body></html>',
        headers: { 'content-type': 'text/html' },
      });
      return;
    case 'truncated':
      writeReply(res, { status: 200, body: ok.body.slice(0, ok.body.length >> 1) });
      return;
    case 'redirect':
      res.writeHead(fault.status ?? 302, { location: fault.location, 'content-length': '0' });
      return void res.end();
    case 'delay':
      return void setTimeout(() => writeReply(res, ok), fault.ms);
  }
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
  const page: Reply = { status: 200, ...renderList('data-meta', 'bookings', [bookingJson(9999)], undefined) };
  const { url, close } = await serve((req, res) => {
    requests.push({ url: req.url ?? '', authorization: req.headers.authorization });
    writeReply(res, page);
  });
  return { url, requests, close };
}
