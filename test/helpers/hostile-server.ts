// A loopback service that echoes the key and terminal sequences in every string it returns: the key
// whole, upper-cased, a 12-character run of it and its percent-encoded form, an OSC title, an SGR
// blink, C1 CSI, a bell and a bidi override. Answers the four GET endpoints (two pages of bookings),
// a booking's collections (/api/v1/bookings/<uid>/<name>: a list of bookings, for a GET leaf added
// later), and any POST (a webhook receiver) with 200. For the output matrix (test/terminal/output-matrix.test.ts).
import { serve } from '../../src/sandbox/core';

/** Has `/` and `+`, so its encoded forms differ from it. */
export const HOSTILE_KEY = 'sk_live/Hostile+Key0123456789abc';
/** A password in a URL the user types: never printed back. */
export const URL_PASSWORD = 'pw-secret-4242';

export const HOSTILE_TEXT = [
  HOSTILE_KEY,
  HOSTILE_KEY.toUpperCase(),
  HOSTILE_KEY.slice(6, 18),
  encodeURIComponent(HOSTILE_KEY),
  '\x1b]0;owned\x07',
  '\x1b[5;41mblink',
  '\x9b31m',
  '\u202eevil\u202c',
].join(' ');

/** Sequences that must never reach any output raw (the door lets booking's own colours through). */
const RAW_SEQUENCES = ['\x1b]', '\x1b[5;41m', '\x9b', '\x07', '\u202e', '\u202c'];

/** What of the key, its encoded forms, the URL password or a raw sequence `text` holds. */
export function leaksIn(text: string): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  for (const form of [HOSTILE_KEY, encodeURIComponent(HOSTILE_KEY)])
    for (let i = 0; i + 12 <= form.length; i++)
      if (lower.includes(form.slice(i, i + 12).toLowerCase())) {
        found.push(`key run ${JSON.stringify(form.slice(i, i + 12))}`);
        break;
      }
  if (text.includes(URL_PASSWORD)) found.push('URL password');
  for (const seq of RAW_SEQUENCES) if (text.includes(seq)) found.push(`raw ${JSON.stringify(seq)}`);
  return found;
}

const booking = (i: number) => ({
  uid: `bk_${i}`,
  title: HOSTILE_TEXT,
  status: HOSTILE_TEXT,
  start: '2026-01-02T10:00:00Z',
  attendee: { name: HOSTILE_TEXT },
  // For bookings changes --since TIME.
  updated_at: '2026-01-01T09:00:00Z',
});

export async function startHostileServer(): Promise<{ url: string; close(): Promise<void> }> {
  const service = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    if (req.method === 'POST') {
      req.resume();
      req.on('end', () => json({ ok: true, echo: HOSTILE_TEXT }));
      return;
    }
    if (url.pathname === '/api/v1/me') return json({ id: 1, name: HOSTILE_TEXT, email: HOSTILE_TEXT });
    if (url.pathname === '/api/v1/event-types') return json({ data: [{ id: 7, slug: HOSTILE_TEXT, title: HOSTILE_TEXT }] });
    // A booking's own collections (/api/v1/bookings/<uid>/attendees…): a list, as REST has them.
    if (/^\/api\/v1\/bookings\/[^/]+\/[^/]+$/.test(url.pathname)) return json({ data: [booking(1), booking(2)] });
    if (url.pathname.startsWith('/api/v1/bookings/')) return json({ data: booking(1) });
    if (url.pathname === '/api/v1/bookings') {
      // The cursor carries the key: it goes back percent-encoded in the query, which --debug shows.
      const second = url.searchParams.get('cursor')?.startsWith('p2') ?? false;
      return json({ data: second ? [booking(3), booking(4)] : [booking(1), booking(2)], next_cursor: second ? null : `p2-${HOSTILE_KEY}` });
    }
    res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ message: HOSTILE_TEXT }));
  });
  return { url: service.url, close: service.close };
}
