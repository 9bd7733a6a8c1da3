// @ts-check
// A minimal loopback bookings API for the benchmark, run as its own process so that the bench can
// time its children with spawnSync while this one answers. Pages are rendered once and kept, so the
// server costs the same little for every client it is compared against.
//
//   node scripts/bench/server.mjs <apiKey> <total> [<total>…]
// listens on 127.0.0.1, one ephemeral port per total, and prints one JSON line:
//   {"<total>": <port>, …}
// then serves until stdin closes (the bench ends it by closing the pipe, or SIGTERM).
//
// A total written `plain:<total>` serves bookings whose ids are below 2^53 (plainBookingJson).
// `big:<MiB>` serves one page of one item, a body of exactly that many MiB holding one 20-digit id
// and a long string (bigBody), at any path; /tiny there is the same with an empty string.
//
// GET /api/v1/bookings?limit=N&cursor=C  → {"data":[…],"meta":{"next_cursor":"…"|null}}
// GET /api/v1/bookings/<uid>            → {"data":{…}}
// Anything without "Authorization: Bearer <apiKey>" → 401.
import { createServer } from 'node:http';

export const PAGE_LIMIT_MAX = 1000;

/** Booking #i as JSON text: a 64-bit id beyond 2^53 (its exact digits matter), nested attendee. */
export function bookingJson(i) {
  const id = (1n << 62n) + BigInt(i) * 7919n;
  const start = Date.UTC(2026, 0, 5, 9) + i * 1_800_000;
  const status = ['confirmed', 'pending', 'cancelled', 'completed'][i % 4];
  return (
    `{"id":${id},"uid":"${bookingUid(i)}","title":"Intro call #${i}","status":"${status}",` +
    `"start":"${new Date(start).toISOString()}","end":"${new Date(start + 1_800_000).toISOString()}",` +
    `"event_type_id":${1000 + (i % 7)},"attendee":{"name":"Attendee ${i}","email":"a${i}@example.com"},` +
    `"price":{"amount":"25.00","currency":"EUR"},"created_at":"2025-12-01T10:00:00.000Z"}`
  );
}

/** Booking #i with an id JSON.parse keeps exactly: what a bare JSON.parse loop can print byte for byte. */
export function plainBookingJson(i) {
  return bookingJson(i).replace(/^\{"id":\d+/, `{"id":${1_000_000 + i}`);
}

export function bookingUid(i) {
  return `bk_${i.toString(36).padStart(7, '0')}`;
}

export function bookingId(i) {
  return ((1n << 62n) + BigInt(i) * 7919n).toString();
}

export const BIG_ID = '12345678901234567890';

/** One page, `bytes` long (at least 80), holding one item: a 20-digit id and a string filling the rest. */
export function bigBody(bytes) {
  const head = `{"data":[{"id":${BIG_ID},"note":"`;
  const tail = '"}],"meta":{"next_cursor":null}}';
  const body = Buffer.alloc(bytes, 'x');
  body.write(head, 0, 'latin1');
  body.write(tail, bytes - tail.length, 'latin1');
  return body;
}

function serveBig(mib) {
  const body = bigBody(mib * 2 ** 20);
  const tiny = bigBody(80);
  const server = createServer((req, res) => {
    const page = req.url === '/tiny' ? tiny : body;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length });
    res.end(page);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const encodeCursor = (offset) => Buffer.from(`offset:${offset}`).toString('base64url');
function decodeCursor(cursor) {
  const m = /^offset:(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString());
  return m ? Number(m[1]) : undefined;
}

function serve(apiKey, total, json = bookingJson) {
  const pages = new Map();
  const page = (offset, limit) => {
    const key = `${offset}/${limit}`;
    let body = pages.get(key);
    if (!body) {
      const end = Math.min(total, offset + limit);
      const items = [];
      for (let i = offset; i < end; i++) items.push(json(i));
      const next = end < total ? `"${encodeCursor(end)}"` : 'null';
      body = Buffer.from(`{"data":[${items.join(',')}],"meta":{"next_cursor":${next}}}`);
      pages.set(key, body);
    }
    return body;
  };
  const send = (res, status, body) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  };
  const server = createServer((req, res) => {
    if (req.headers.authorization !== `Bearer ${apiKey}`) return send(res, 401, Buffer.from('{"error":"unauthorized"}'));
    // A server's request always has its url.
    const url = new URL(/** @type {string} */ (req.url), 'http://localhost');
    if (url.pathname === '/api/v1/bookings') {
      const limit = Math.min(PAGE_LIMIT_MAX, Math.max(1, Number(url.searchParams.get('limit') ?? 20) || 20));
      const cursor = url.searchParams.get('cursor');
      const offset = cursor === null ? 0 : decodeCursor(cursor);
      if (offset === undefined) return send(res, 400, Buffer.from('{"error":"bad cursor"}'));
      return send(res, 200, page(offset, limit));
    }
    const m = /^\/api\/v1\/bookings\/bk_([0-9a-z]{7})$/.exec(url.pathname);
    const i = m ? parseInt(m[1], 36) : -1;
    if (i >= 0 && i < total) return send(res, 200, Buffer.from(`{"data":${bookingJson(i)}}`));
    return send(res, 404, Buffer.from('{"error":"not found"}'));
  });
  server.keepAliveTimeout = 60_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [apiKey, ...totals] = process.argv.slice(2);
  const ports = {};
  const servers = [];
  for (const t of totals) {
    const s = t.startsWith('plain:')
      ? await serve(apiKey, Number(t.slice(6)), plainBookingJson)
      : t.startsWith('big:')
        ? await serveBig(Number(t.slice(4)))
        : await serve(apiKey, Number(t));
    servers.push(s);
    ports[t] = s.address().port;
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`);
  const stop = () => {
    for (const s of servers) {
      s.closeAllConnections?.();
      s.close();
    }
    process.exit(0);
  };
  process.stdin.on('end', stop).on('error', stop).resume();
  process.on('SIGTERM', stop);
}
