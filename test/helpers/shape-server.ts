// A loopback server that lists bookings in one of many response shapes, so end-to-end tests prove
// that discovery works for shapes other than the sandbox's. It records every request it sees.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Shape =
  | 'data-meta' // {data, meta: {next_cursor}}
  | 'bare-link' // [..] + Link: <…>; rel="next"
  | 'bookings-nextCursor' // {bookings, nextCursor}
  | 'items-links' // {items, links: {next: "/relative?cursor=…"}}
  | 'nested' // {status, data: {bookings, pagination: {nextCursor, hasMore}}}
  | 'entries-metadata' // {entries, metadata: {after}}
  | 'results-absolute' // {results, next: "http://…/abs?cursor=…"}
  | 'page-info' // {collection, page_info: {endCursor, hasNextPage}}
  | 'records-token'; // {records, paging: {next_page_token}}

export const ALL_SHAPES: Shape[] = [
  'data-meta', 'bare-link', 'bookings-nextCursor', 'items-links', 'nested', 'entries-metadata',
  'results-absolute', 'page-info', 'records-token',
];

export interface ShapeServerOptions {
  shape: Shape;
  count?: number;
  apiKey?: string;
  /** The server's own maximum page size (it caps `limit` silently). */
  maxPage?: number;
  defaultPage?: number;
  /** Raw JSON text per booking, to inject hostile or lossless data. */
  rawItem?: (i: number) => string;
}

export interface RecordedRequest {
  method: string;
  url: string;
  authorization: string | undefined;
}

export interface ShapeServer {
  url: string;
  apiKey: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export function bookingJson(i: number): string {
  const n = String(i).padStart(4, '0');
  const statuses = ['pending', 'confirmed', 'cancelled', 'completed'];
  const start = new Date(Date.UTC(2026, 10, 1, 9, 0, 0) + i * 3_600_000).toISOString();
  const end = new Date(Date.UTC(2026, 10, 1, 9, 30, 0) + i * 3_600_000).toISOString();
  return `{"uid":"bk_${n}","id":${9007199254740993n + BigInt(i)},"title":"Meeting ${n}","status":"${statuses[i % 4]}","start":"${start}","end":"${end}","attendee":{"name":"Person ${n}","email":"p${n}@example.com"}}`;
}

const encodeCursor = (offset: number) => Buffer.from(`o:${offset}`).toString('base64url');
const decodeCursor = (c: string) => {
  const m = /^o:(\d+)$/.exec(Buffer.from(c, 'base64url').toString());
  return m ? Number(m[1]) : undefined;
};

function listBody(shape: Shape, items: string, next: string | undefined, nextUrl: string | undefined): string {
  const q = (v: string | undefined) => (v === undefined ? 'null' : JSON.stringify(v));
  switch (shape) {
    case 'data-meta': return `{"data":[${items}],"meta":{"next_cursor":${q(next)}}}`;
    case 'bare-link': return `[${items}]`;
    case 'bookings-nextCursor': return `{"bookings":[${items}],"nextCursor":${q(next)}}`;
    case 'items-links': return `{"items":[${items}],"links":{"next":${q(nextUrl && new URL(nextUrl).pathname + new URL(nextUrl).search)}}}`;
    case 'nested': return `{"status":"ok","data":{"bookings":[${items}],"pagination":{"nextCursor":${q(next ?? '')},"hasMore":${next !== undefined}}}}`;
    case 'entries-metadata': return `{"entries":[${items}],"metadata":{"after":${q(next)}}}`;
    case 'results-absolute': return `{"results":[${items}],"next":${q(nextUrl)}}`;
    case 'page-info': return `{"collection":[${items}],"page_info":{"endCursor":${q(next)},"hasNextPage":${next !== undefined}}}`;
    case 'records-token': return `{"records":[${items}],"paging":{"next_page_token":${q(next)}}}`;
  }
}

export async function startShapeServer(opts: ShapeServerOptions): Promise<ShapeServer> {
  const count = opts.count ?? 25;
  const apiKey = opts.apiKey ?? 'sk_test_shape_1234';
  const maxPage = opts.maxPage ?? 10;
  const defaultPage = opts.defaultPage ?? 7;
  const item = opts.rawItem ?? bookingJson;
  const requests: RecordedRequest[] = [];

  const handler = (req: IncomingMessage, res: ServerResponse) => {
    requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const send = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'application/json', ...headers });
      res.end(body);
    };
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(401, '{"error":{"message":"invalid API key"}}');
    if (url.pathname === '/api/v1/me') return send(200, '{"data":{"id":1,"name":"Test Owner","email":"owner@example.com"}}');
    if (url.pathname === '/api/v1/event-types') return send(200, '{"data":[{"id":1,"slug":"30min","title":"30 min"},{"id":2,"slug":"60min","title":"60 min"}]}');
    const one = /^\/api\/v1\/bookings\/([^/]+)$/.exec(url.pathname);
    if (one) {
      const uid = decodeURIComponent(one[1]!);
      const i = Number(/^bk_(\d{4})$/.exec(uid)?.[1] ?? NaN);
      if (!(i >= 0 && i < count)) return send(404, `{"message":"booking ${JSON.stringify(uid).slice(1, -1)} not found"}`);
      return send(200, `{"data":${item(i)}}`);
    }
    if (url.pathname !== '/api/v1/bookings') return send(404, '{"message":"no such endpoint"}');
    const cursor = url.searchParams.get('cursor');
    const offset = cursor === null ? 0 : decodeCursor(cursor);
    if (offset === undefined) return send(400, '{"message":"bad cursor"}');
    const limitParam = url.searchParams.get('limit');
    const size = Math.min(limitParam === null ? defaultPage : Number(limitParam), maxPage);
    const end = Math.min(offset + size, count);
    const items: string[] = [];
    for (let i = offset; i < end; i++) items.push(item(i));
    const next = end < count ? encodeCursor(end) : undefined;
    let nextUrl: string | undefined;
    if (next) {
      const u = new URL(url.href);
      u.searchParams.set('cursor', next);
      nextUrl = u.href;
    }
    const headers: Record<string, string> = {};
    if (opts.shape === 'bare-link' && nextUrl) headers.link = `<${nextUrl}>; rel="next"`;
    send(200, listBody(opts.shape, items.join(','), next, nextUrl), headers);
  };

  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}
