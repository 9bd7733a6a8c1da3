// A loopback server that lists bookings in one of many response shapes, so end-to-end tests prove
// that discovery works for shapes other than the sandbox's. Built on the sandbox's core: it adds only
// the shapes the sandbox does not speak. It records every request it sees.
import { decodeCursor, startFakeService, type Reply } from '../../src/sandbox/core';
import type { ShapeName } from '../../src/sandbox/defaults';
import { renderList, type NextPage } from '../../src/sandbox/shapes';
import { bookingJson, indexOfUid, nextPageAt, slice } from './numbered-bookings';

export { bookingJson } from './numbered-bookings';

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
  'data-meta',
  'bare-link',
  'bookings-nextCursor',
  'items-links',
  'nested',
  'entries-metadata',
  'results-absolute',
  'page-info',
  'records-token',
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

interface RecordedRequest {
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

/** The shapes the sandbox speaks as well, by its name for them. */
const SANDBOX_SHAPES: Partial<Record<Shape, ShapeName>> = {
  'data-meta': 'data-meta',
  'bare-link': 'bare-link',
  'bookings-nextCursor': 'bookings-nextcursor',
  'items-links': 'items-links',
  'entries-metadata': 'entries-metadata',
};

function listReply(shape: Shape, items: string[], next: NextPage | undefined): Reply {
  const list = `[${items.join(',')}]`;
  const q = (v: string | undefined) => (v === undefined ? 'null' : JSON.stringify(v));
  const ok = (body: string): Reply => ({ status: 200, body });
  switch (shape) {
    // The sandbox's nested shape, but the last page says "" rather than null.
    case 'nested':
      return ok(
        `{"status":"ok","data":{"bookings":${list},"pagination":{"nextCursor":${q(next?.cursor ?? '')},"hasMore":${next !== undefined}}}}`,
      );
    case 'results-absolute':
      return ok(`{"results":${list},"next":${q(next?.url)}}`);
    case 'page-info':
      return ok(`{"collection":${list},"page_info":{"endCursor":${q(next?.cursor)},"hasNextPage":${next !== undefined}}}`);
    case 'records-token':
      return ok(`{"records":${list},"paging":{"next_page_token":${q(next?.cursor)}}}`);
    default:
      return { status: 200, ...renderList(SANDBOX_SHAPES[shape]!, 'bookings', items, next) };
  }
}

export async function startShapeServer(opts: ShapeServerOptions): Promise<ShapeServer> {
  const count = opts.count ?? 25;
  const apiKey = opts.apiKey ?? 'sk_test_shape_1234';
  const maxPage = opts.maxPage ?? 10;
  const defaultPage = opts.defaultPage ?? 7;
  const item = opts.rawItem ?? bookingJson;
  const requests: RecordedRequest[] = [];

  const service = await startFakeService({
    apiKey,
    onRequest: ({ req }) => void requests.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization }),
    answer: ({ endpoint, segment, url }): Reply => {
      switch (endpoint) {
        case 'me':
          return { status: 200, body: '{"data":{"id":1,"name":"Test Owner","email":"owner@example.com"}}' };
        case 'event-types':
          return { status: 200, body: '{"data":[{"id":1,"slug":"30min","title":"30 min"},{"id":2,"slug":"60min","title":"60 min"}]}' };
        case 'get': {
          const uid = decodeURIComponent(segment!);
          const i = indexOfUid(uid);
          if (!(i >= 0 && i < count)) return { status: 404, body: `{"message":"booking ${JSON.stringify(uid).slice(1, -1)} not found"}` };
          return { status: 200, body: `{"data":${item(i)}}` };
        }
        case 'list': {
          const cursor = url.searchParams.get('cursor');
          const offset = cursor === null ? 0 : decodeCursor(cursor);
          if (offset === undefined) return { status: 400, body: '{"message":"bad cursor"}' };
          const limit = url.searchParams.get('limit');
          const page = slice({ count, offset, size: Math.min(limit === null ? defaultPage : Number(limit), maxPage), item });
          return listReply(opts.shape, page.items, page.next === undefined ? undefined : nextPageAt(url, page.next));
        }
        default:
          return { status: 404, body: '{"message":"no such endpoint"}' };
      }
    },
  });
  return { url: service.url, apiKey, requests, close: service.close };
}
