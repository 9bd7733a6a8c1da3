// The four endpoints, bearer auth and the JSON errors. Every error body is
// {"error":{"code":"…","message":"…"}}, the form the CLI reads `error.message` from.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { timingSafeEqual } from 'node:crypto';
import { BOOKING_STATUSES, type BookingStatus, type EventType, type Owner } from './data';
import { toJsonText } from './json-text';
import type { ShapeName } from './defaults';
import { renderList, renderOne, type NextPage } from './shapes';
import { decodeCursor, type BookingStore } from './store';
import type { Switches } from './switches';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 50;

export interface RouteState {
  apiKey: string;
  shape: ShapeName;
  owner: Owner;
  eventTypes: EventType[];
  store: BookingStore;
  switches: Switches;
  /** The sandbox's own base URL, for next-page links when a request has no usable Host header. */
  baseUrl: string;
  /** One line per request (method, path, status, time taken); undefined when quiet. */
  log?: (line: string) => void;
  /** Aborted when the sandbox closes, to cut added latency short. */
  closing: AbortSignal;
}

interface Reply {
  status: number;
  body: string;
  headers?: Record<string, string>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

const ALLOWED_METHODS = 'GET, HEAD';

export function createRequestHandler(state: RouteState): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const began = performance.now();
    if (state.log) {
      const log = state.log;
      res.on('finish', () => {
        const ms = Math.round(performance.now() - began);
        log(`${new Date().toISOString()} ${req.method} ${req.url} ${res.statusCode} ${ms}ms`);
      });
    }
    const internal = (err: unknown): Reply => ({
      status: 500,
      body: toJsonText({ error: { code: 'internal', message: `sandbox bug: ${err instanceof Error ? err.message : String(err)}` } }),
    });
    void answer(state, req).catch(internal).then((reply) => {
      if (res.destroyed) return;
      const body = Buffer.from(`${reply.body}\n`);
      res.writeHead(reply.status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': body.length,
        'cache-control': 'no-store',
        ...reply.headers,
      });
      res.end(body);
    });
  };
}

async function answer(state: RouteState, req: IncomingMessage): Promise<Reply> {
  await state.switches.delay(state.closing);
  try {
    const refusal = state.switches.gate();
    if (refusal) throw new HttpError(refusal.status, refusal.code, refusal.message, refusal.headers);
    if (!authorized(req.headers.authorization, state.apiKey)) {
      throw new HttpError(401, 'unauthorized', 'missing or invalid API key: send Authorization: Bearer <key>', {
        'www-authenticate': 'Bearer realm="booking-sandbox"',
      });
    }
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const route = findRoute(url.pathname);
    if (!route) throw new HttpError(404, 'not_found', `no endpoint at ${url.pathname}`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', `${req.method} is not allowed here; use GET`, { allow: ALLOWED_METHODS });
    }
    return route(state, url, origin(req, state.baseUrl));
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    return { status: err.status, body: toJsonText({ error: { code: err.code, message: err.message } }), headers: err.headers };
  }
}

function authorized(header: string | undefined, apiKey: string): boolean {
  const m = /^Bearer +(\S+) *$/i.exec(header ?? '');
  if (!m) return false;
  const given = Buffer.from(m[1]!);
  const want = Buffer.from(apiKey);
  return given.length === want.length && timingSafeEqual(given, want);
}

type Route = (state: RouteState, url: URL, origin: string) => Reply;

function findRoute(rawPath: string): Route | undefined {
  const path = rawPath.length > 1 ? rawPath.replace(/\/$/, '') : rawPath;
  if (path === '/api/v1/me') return (s) => ok(renderOne(s.shape, 'owner', toJsonText(s.owner)));
  if (path === '/api/v1/event-types') return (s) => reply(renderList(s.shape, 'event_types', s.eventTypes.map((e) => toJsonText(e)), undefined));
  if (path === '/api/v1/bookings') return listBookings;
  const one = /^\/api\/v1\/bookings\/([^/]+)$/.exec(path);
  if (one) return (s) => getBooking(s, one[1]!);
  return undefined;
}

function getBooking(state: RouteState, segment: string): Reply {
  let uid: string;
  try {
    uid = decodeURIComponent(segment);
  } catch {
    throw new HttpError(400, 'invalid_uid', `the uid in the path is not valid percent-encoding: ${segment}`);
  }
  const booking = state.store.get(uid);
  if (!booking) throw new HttpError(404, 'not_found', `booking ${JSON.stringify(uid)} not found`);
  return ok(renderOne(state.shape, 'booking', toJsonText(booking)));
}

function listBookings(state: RouteState, url: URL, origin: string): Reply {
  const q = url.searchParams;
  const limitText = q.get('limit');
  const statusText = q.get('status');
  const cursor = q.get('cursor');
  let limit = DEFAULT_PAGE_SIZE;
  if (limitText !== null) {
    if (!/^\d{1,9}$/.test(limitText) || Number(limitText) < 1) {
      throw new HttpError(400, 'invalid_limit', `limit must be a whole number of at least 1 (pages hold at most ${MAX_PAGE_SIZE}), not ${JSON.stringify(limitText)}`);
    }
    limit = Math.min(Number(limitText), MAX_PAGE_SIZE);
  }
  const statuses = statusText ? parseStatuses(statusText) : undefined;
  let after = 0;
  if (cursor) {
    const seq = decodeCursor(cursor);
    if (seq === undefined) throw new HttpError(400, 'invalid_cursor', `invalid cursor ${JSON.stringify(cursor)}: pass the cursor of the previous page as it was given`);
    after = seq;
  }
  const page = state.store.page({ statuses, after, limit });
  let next: NextPage | undefined;
  if (page.next) {
    const params = new URLSearchParams();
    if (statusText) params.set('status', statusText);
    if (limitText !== null) params.set('limit', limitText);
    params.set('cursor', page.next);
    const path = `${url.pathname}?${params}`;
    next = { cursor: page.next, path, url: `${origin}${path}` };
  }
  return reply(renderList(state.shape, 'bookings', page.items.map((b) => toJsonText(b)), next));
}

/** "confirmed" or "pending,confirmed": any of those statuses. */
function parseStatuses(text: string): Set<BookingStatus> {
  const wanted = new Set<BookingStatus>();
  for (const s of text.split(',').map((v) => v.trim())) {
    if (!(BOOKING_STATUSES as readonly string[]).includes(s)) {
      throw new HttpError(400, 'invalid_status', `unknown status ${JSON.stringify(s)}: valid statuses are ${BOOKING_STATUSES.join(', ')}`);
    }
    wanted.add(s as BookingStatus);
  }
  return wanted;
}

/** The origin the client used (so a Link it follows keeps its host name), else our own. */
function origin(req: IncomingMessage, baseUrl: string): string {
  const host = req.headers.host;
  return host && /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/.test(host) ? `http://${host}` : baseUrl;
}

function ok(body: string): Reply {
  return { status: 200, body };
}

function reply(r: { body: string; headers: Record<string, string> }): Reply {
  return { status: 200, body: r.body, headers: r.headers };
}
