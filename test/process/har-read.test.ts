// A big HAR file is read in pieces (src/webhook/har-scan.ts, har.ts), not with one JSON.parse: on a
// 120 MB HAR that parse held 0.8-1.8 GB at its peak, and Ctrl-C landed only after it, 2-9 s late.
// Here a ~96 MB devtools-like HAR (130,000 entries, 1 in 1,000 a signed POST): Ctrl-C once the file is
// read, while its entries are parsed and before any verdict, is exit 130 within a second; and a
// whole run stays within a small multiple of the file beside what a run on a tiny HAR takes.
import { createHmac } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { interruptWhenBusy, loadBudget } from '../helpers/interrupt';
import { HAS_GNU_TIME, peakOf } from '../helpers/peak-rss';

const SECRET = 'whsec_har_read_0123456789';
const env = { BOOKING_WEBHOOK_SECRET: SECRET };
const ENTRIES = 130_000;
const SIGNED_EVERY = 1_000;

/**
 * A GET as devtools saves one (~730 bytes: headers, a small JSON response, timings): its text made
 * once, with a mark where the entry's number goes (130,000 JSON.stringify calls were 1.2 s of the
 * test's CPU).
 */
const GET_PARTS = ((i: string) =>
  JSON.stringify({
    startedDateTime: '2026-01-05T09:00:00.123Z',
    time: 225.47600000689272,
    request: {
      method: 'GET',
      url: `https://app.example.com/api/v1/bookings/bk_${i}?expand=attendees`,
      httpVersion: 'http/2.0',
      headers: ['accept', 'referer', 'user-agent'].map((name) => ({ name, value: `${name} of request ${i}` })),
      queryString: [{ name: 'expand', value: 'attendees' }],
      cookies: [],
      headersSize: -1,
      bodySize: 0,
    },
    response: {
      status: 200,
      headers: [{ name: 'content-type', value: 'application/json' }],
      content: { size: 46, mimeType: 'application/json', text: `{"uid":"bk_${i}","status":"confirmed"}` },
    },
    timings: { blocked: 0.9, send: 0.2, wait: 224.1, receive: 0.27 },
  }))('@N@').split('@N@');
const getEntry = (i: number) => GET_PARTS.join(String(i));

const signedEntry = (i: number) => {
  const body = `{"id":"evt_${i}","event":"booking.created","data":{"booking":{"uid":"bk_${i}"}}}`;
  const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
  const headers = [
    { name: 'X-Service-Event', value: 'booking.created' },
    { name: 'X-Service-Signature', value: signature },
  ];
  return JSON.stringify({ request: { method: 'POST', url: 'http://127.0.0.1/hooks', headers, postData: { text: body } } });
};

/** How many bytes the process has read (/proc/PID/io): its HAR file whole, once it passes the file's size. */
function bytesRead(pid: number | undefined): number {
  try {
    return Number(/^rchar: (\d+)$/m.exec(readFileSync(`/proc/${pid}/io`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0; // ended
  }
}

describe.runIf(existsSync('/proc/self/io'))('a ~96 MB HAR, read in pieces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'booking-har-read-'));
  const big = join(dir, 'big.har');
  const tiny = join(dir, 'tiny.har');
  let size = 0;

  beforeAll(() => {
    // Written a block of 1,000 entries at a time: the test never holds the file's text.
    const fd = openSync(big, 'w');
    writeSync(fd, '{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":[\n');
    for (let from = 0; from < ENTRIES; from += 1_000) {
      const block = Array.from({ length: 1_000 }, (_, k) => (k === 0 ? signedEntry(from) : getEntry(from + k)));
      writeSync(fd, `${from ? ',\n' : ''}${block.join(',\n')}`);
    }
    writeSync(fd, '\n]}}\n');
    closeSync(fd);
    size = statSync(big).size;
    writeFileSync(tiny, `{"log":{"entries":[${signedEntry(0)}]}}`);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('Ctrl-C once the file is read, while its entries are parsed: exit 130 within a second', async () => {
    const r = await interruptWhenBusy(['webhook', 'verify', '--request', big], { env, busy: (o) => bytesRead(o.pid) >= size });
    expect(r.code, r.stderr).toBe(130);
    // One JSON.parse of the file ended 2.0 s after Ctrl-C here (at load 1-2); the pieces, 30-40 ms.
    expect(r.afterSigint).toBeLessThan(loadBudget(1_000));
    expect(r.stdout).not.toContain(`big.har#${ENTRIES - SIGNED_EVERY}`);
  }, 60_000);

  it.runIf(HAS_GNU_TIME)(
    'a whole run: peak memory under twice the file beyond a tiny HAR’s run',
    async () => {
      const out = join(dir, 'out');
      const base = await peakOf(['webhook', 'verify', '--request', tiny], env, out);
      const run = await peakOf(['webhook', 'verify', '--request', big], env, out);
      expect([run.code, base.code], run.stderr).toEqual([0, 0]);
      expect(readFileSync(out, 'utf8').split('\n').filter(Boolean)).toHaveLength(ENTRIES / SIGNED_EVERY);
      // The file's bytes (read into one buffer) and a batch of entries at a time: 1.17x measured. With
      // one JSON.parse of the file (and its chunks kept, then joined), 4.9x.
      const multiple = ((run.kib - base.kib) * 1024) / size;
      expect(multiple, `${multiple.toFixed(2)}x the file`).toBeLessThan(2);
    },
    60_000,
  );
});
