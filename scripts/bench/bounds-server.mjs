// @ts-check
// The loopback API for the bench's bounds rows (scripts/bench/bounds.mjs), in its own process like
// server.mjs. Each body is made once and kept.
//
//   node scripts/bench/bounds-server.mjs <apiKey>  → prints {"port": N}, serves until stdin closes
//
// GET /wide?n=N&chars=C  → {"data":[N bookings]}: the first titled with C CJK characters, the others
//                          with mixed wide text (CJK, emoji, combining marks, Hangul, fullwidth)
// GET /items?n=N         → a JSON array of N booking-like items (bookingJson), for --jq
// GET /endless?cursor=C  → {"data":[1,000 of them],"next_cursor":"C+1"}: pages for ever (not kept)
import { createServer } from 'node:http';
import { bookingJson } from './server.mjs';

const MIXED = ['会議室の予約', '👨‍👩‍👧 family 🇫🇷', 'cafe\u0301 re\u0301sume\u0301', '한국어 회의', 'ＦＵＬＬ ｗｉｄｔｈ', '表'];

/**
 * @param {number} n
 * @param {number} chars
 */
function wide(n, chars) {
  const data = Array.from({ length: n }, (_, i) => ({
    uid: `bk_${String(i).padStart(7, '0')}`,
    title: i === 0 ? '漢字'.repeat(chars / 2) : MIXED[i % MIXED.length].repeat(4000 / MIXED[i % MIXED.length].length),
    status: 'confirmed',
    start: '2026-01-05T09:00:00Z',
  }));
  return JSON.stringify({ data });
}

/**
 * @param {number} from
 * @param {number} n
 */
const items = (from, n) => Array.from({ length: n }, (_, i) => bookingJson(from + i)).join(',');

/** @type {Map<string, Buffer>} */
const bodies = new Map();
/**
 * @param {URL} url
 * @returns {Buffer | undefined}
 */
function body(url) {
  const key = url.pathname + url.search;
  let b = bodies.get(key);
  if (!b) {
    /** @param {string} name */
    const q = (name) => Number(url.searchParams.get(name) ?? 0);
    /** @type {string} */
    let text;
    if (url.pathname === '/wide') text = wide(q('n'), q('chars'));
    else if (url.pathname === '/items') text = `[${items(0, q('n'))}]`;
    else if (url.pathname === '/endless') text = `{"data":[${items(q('cursor') * 1000, 1000)}],"next_cursor":"${q('cursor') + 1}"}`;
    else return undefined;
    b = Buffer.from(text);
    if (url.pathname !== '/endless') bodies.set(key, b);
  }
  return b;
}

const apiKey = process.argv[2];
const server = createServer((req, res) => {
  // A server's request always has its url.
  const b =
    req.headers.authorization === `Bearer ${apiKey}` ? body(new URL(/** @type {string} */ (req.url), 'http://localhost')) : undefined;
  if (!b) return res.writeHead(404).end();
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': b.length }).end(b);
});
server.keepAliveTimeout = 60_000;
// Listening on a TCP port, address() is an AddressInfo.
server.listen(0, '127.0.0.1', () => {
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`${JSON.stringify({ port })}\n`);
});
const stop = () => {
  server.closeAllConnections?.();
  server.close();
  process.exit(0);
};
process.stdin.on('end', stop).on('error', stop).resume();
process.on('SIGTERM', stop);
