// The sandbox's answers on the shared core (core.ts): its seeded world in the chosen shape, the
// switches that misbehave on purpose, and JSON errors. Every error body is
// {"error":{"code":"…","message":"…"}}, the form the CLI reads `error.message` from.
import type { ServerResponse } from 'node:http';
import { BOOKING_STATUSES, type BookingStatus, type EventType, type Owner } from './data';
import { decodeCursor, startFakeService, writeReply, type FakeRequest, type FakeService, type ListenAt, type Reply } from './core';
import { toJsonText } from './json-text';
import { conditionalReply } from './conditional';
import type { ShapeName } from './defaults';
import { renderList, renderOne, type NextPage } from './shapes';
import type { BookingStore } from './store';
import type { Switches } from './switches';

const DEFAULT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 50;

export interface RouteState {
  apiKey: string;
  shape: ShapeName;
  owner: Owner;
  eventTypes: EventType[];
  store: BookingStore;
  switches: Switches;
  /** One line per request (method, path, status, time taken); undefined when quiet. */
  log?: (line: string) => void;
  /** Aborted when the sandbox closes, to cut added latency short. */
  closing: AbortSignal;
  /** When the world last changed (ms): the Last-Modified of every answer. */
  lastModified(): number;
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

export function startSandboxService(state: RouteState, at: ListenAt): Promise<FakeService> {
  return startFakeService(
    {
      apiKey: state.apiKey,
      label: 'sandbox',
      onRequest: state.log && logOnFinish(state.log),
      gate: async () => {
        await state.switches.delay(state.closing);
        const refusal = state.switches.gate();
        return refusal && errorReply(new HttpError(refusal.status, refusal.code, refusal.message, refusal.headers));
      },
      unauthorized: errorReply(
        new HttpError(401, 'unauthorized', 'missing or invalid API key: send Authorization: Bearer <key>', {
          'www-authenticate': 'Bearer realm="booking-sandbox"',
        }),
      ),
      answer: (r) => {
        try {
          return answer(state, r);
        } catch (err) {
          if (!(err instanceof HttpError)) throw err;
          return errorReply(err);
        }
      },
      send: (res, reply, r) => {
        const headers = { 'content-type': 'application/json; charset=utf-8', ...state.switches.limitHeaders(), ...reply.headers };
        const body = `${reply.body}\n`;
        if (reply.status !== 200)
          return writeReply(res, { status: reply.status, body, headers: { 'cache-control': 'no-store', ...headers } });
        writeReply(res, conditionalReply(r.req, body, state.lastModified(), headers));
      },
    },
    at,
  );
}

function logOnFinish(log: (line: string) => void): (r: FakeRequest, res: ServerResponse) => void {
  return ({ req }, res) => {
    const began = performance.now();
    res.on('finish', () => {
      const ms = Math.round(performance.now() - began);
      log(`${new Date().toISOString()} ${req.method} ${req.url} ${res.statusCode} ${ms}ms`);
    });
  };
}

function errorReply(err: HttpError): Reply {
  return { status: err.status, body: toJsonText({ error: { code: err.code, message: err.message } }), headers: err.headers };
}

function answer(state: RouteState, r: FakeRequest): Reply {
  if (r.endpoint === 'other') throw new HttpError(404, 'not_found', `no endpoint at ${r.url.pathname}`);
  if (r.req.method !== 'GET' && r.req.method !== 'HEAD') {
    throw new HttpError(405, 'method_not_allowed', `${r.req.method} is not allowed here; use GET`, { allow: ALLOWED_METHODS });
  }
  switch (r.endpoint) {
    case 'me':
      return ok(renderOne(state.shape, 'owner', toJsonText(state.owner)));
    case 'event-types':
      return reply(
        renderList(
          state.shape,
          'event_types',
          state.eventTypes.map((e) => toJsonText(e)),
          undefined,
        ),
      );
    case 'list':
      return listBookings(state, r.url, r.origin);
    case 'get':
      return getBooking(state, r.segment!);
  }
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
      throw new HttpError(
        400,
        'invalid_limit',
        `limit must be a whole number of at least 1 (pages hold at most ${MAX_PAGE_SIZE}), not ${JSON.stringify(limitText)}`,
      );
    }
    limit = Math.min(Number(limitText), MAX_PAGE_SIZE);
  }
  const statuses = statusText ? parseStatuses(statusText) : undefined;
  let after = 0;
  if (cursor) {
    const seq = decodeCursor(cursor);
    if (seq === undefined)
      throw new HttpError(
        400,
        'invalid_cursor',
        `invalid cursor ${JSON.stringify(cursor)}: pass the cursor of the previous page as it was given`,
      );
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
  return reply(
    renderList(
      state.shape,
      'bookings',
      page.items.map((b) => toJsonText(b)),
      next,
    ),
  );
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

function ok(body: string): Reply {
  return { status: 200, body };
}

function reply(r: { body: string; headers: Record<string, string> }): Reply {
  return { status: 200, body: r.body, headers: r.headers };
}
