// Services that try to break `bookings watch` (issue 33): a 429 whose Retry-After no timer can hold
// (2147484 s, or an HTTP date in year 9999), a list that never ends (each page names a next one, each
// booking new), and one booking holding a 3-million-element array. Each counts the requests it got.
import { serve, type FakeService } from '../../src/sandbox/core';

export interface HostileWatchService extends FakeService {
  requests(): number;
}

export type HostileKind = 'retry-after-seconds' | 'retry-after-9999' | 'endless' | 'big-booking' | 'big-booking-under';

const PAGE = 100;
// Each endless booking carries 1,200 characters of notes (~1.4 KB of JSON): the default --max-state
// (72 MiB) is passed at ~49,000 bookings, not ~169,000 of 330 bytes, for half the CPU and the same
// peak (154-161 MB on node 20, 166-171 on node 24, five runs each, as with the small ones). Pages stay
// at 100 items: the peak grows with the items of a page (200: +20 MB; 1,000: 198 MB on node 24).
const NOTES = 'n'.repeat(1200);

export async function startHostileWatchService(kind: HostileKind): Promise<HostileWatchService> {
  let requests = 0;
  // 3 million elements: 22 MB of JSON, over watch's 8 MiB page; 1.1 million: 7.7 MB, just under it.
  const big = kind === 'big-booking' ? bigBookingBody(3_000_000) : kind === 'big-booking-under' ? bigBookingBody(1_100_000) : undefined;
  const service = await serve((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://x');
    if (kind === 'retry-after-seconds' || kind === 'retry-after-9999') {
      const after = kind === 'retry-after-seconds' ? '2147484' : 'Fri, 31 Dec 9999 23:59:59 GMT';
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': after }).end('{"error":{"message":"slow down"}}');
      return;
    }
    if (big) {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': big.length }).end(big);
      return;
    }
    // endless: page n holds bookings n*PAGE … n*PAGE+99, and names page n+1.
    const n = Number(url.searchParams.get('cursor') ?? '0');
    const items = Array.from({ length: PAGE }, (_, i) => {
      const k = n * PAGE + i;
      return `{"uid":"bk_${k}","title":"Endless meeting ${k}","status":"confirmed","start":"2026-02-01T10:00:00Z","end":"2026-02-01T10:30:00Z","attendee":{"name":"Ada Lovelace","email":"ada@example.com"},"notes":"${NOTES}"}`;
    });
    const body = `{"data":[${items.join(',')}],"next_cursor":"${n + 1}"}`;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
  });
  return { ...service, requests: () => requests };
}

/**
 * One page, one booking, whose `slots` holds the numbers 0 … n-1: about 7 bytes each. Its digits are
 * written straight into a Buffer (the same bytes as joining String(i) for each, in 80 ms, not 1.2 s).
 */
function bigBookingBody(n: number): Buffer {
  const head = '{"data":[{"uid":"bk_big","status":"confirmed","start":"2026-02-01T10:00:00Z","slots":[';
  const tail = ']}]}';
  const buf = Buffer.allocUnsafe(head.length + n * (String(n).length + 1) + tail.length);
  let at = buf.write(head, 0, 'latin1');
  // The number's digits, least significant first, counted up in place.
  const digits = [0];
  for (let i = 0; i < n; i++) {
    if (i > 0) buf[at++] = 0x2c; // ,
    for (let k = digits.length - 1; k >= 0; k--) buf[at++] = 0x30 + digits[k]!;
    let k = 0;
    while (k < digits.length && digits[k] === 9) digits[k++] = 0;
    if (k === digits.length) digits.push(1);
    else digits[k]!++;
  }
  at += buf.write(tail, at, 'latin1');
  return buf.subarray(0, at);
}
