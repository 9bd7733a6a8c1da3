// Ctrl-C in big batches (issue 33, item 4): `webhook verify --request` over a HAR of 20,000 entries
// or a folder of 2,000 captures, and `send --scenario` with 20,000 `set` lines on a 700 KB body (a 500 KB field, then 20,000 more) (each
// --set once re-scanned the whole body: 43 s of CPU, deaf to Ctrl-C). Each run, interrupted once it
// is busy, exits 130 within a second, without printing every verdict. The HAR and the folder were
// 100,000 and 20,000 (the folder alone cost 5-6 s of CPU to write): with verify's loops deaf to the
// signal again (no checkpoint) a run verifies all its input (2,000 captures or 20,000 entries in 0.3-2
// s) and exits 0 with the last verdict printed, which fails it at any size; the fixed run stops ~50
// verdicts after SIGINT, which it is sent once its first output (190-220 verdicts) arrives.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { signedCapture, signedHar } from '../helpers/webhook-kit';
import { interruptWhenBusy, loadBudget } from '../helpers/interrupt';

const SECRET = 'whsec_batch_0123456789';
const body = '{"id":"evt_1","event":"booking.created","data":{"booking":{"uid":"bk_1"}}}';
const env = { BOOKING_WEBHOOK_SECRET: SECRET };

describe('Ctrl-C in a big batch: exit 130 within a second', () => {
  const dir = mkdtempSync(join(tmpdir(), 'booking-batch-'));
  const har = join(dir, 'big.har');
  const folder = join(dir, 'captures');
  const scenario = join(dir, 'scenario.json');
  let receiver: Receiver;
  // One page of 63 MiB (about 560,000 bookings); `sent` counts the bodies sent whole.
  let api: { url: string; close(): Promise<void> };
  let sent = 0;

  beforeAll(async () => {
    writeFileSync(har, signedHar(body, SECRET, 20_000));
    mkdirSync(folder);
    const capture = signedCapture(body, SECRET);
    for (let i = 0; i < 2_000; i++) writeFileSync(join(folder, `${String(i).padStart(6, '0')}.http`), capture);
    const sets = [`data.blob=${JSON.stringify('x'.repeat(500_000))}`, ...Array.from({ length: 20_000 }, (_, i) => `data.f${i}=${i}`)];
    writeFileSync(scenario, JSON.stringify(['booking.created', { event: 'booking.cancelled', set: sets }, 'booking.completed']));
    receiver = await startReceiver();
    // 4611686018427387904 + i (past 2^53), without BigInt.
    const item = (i: number) =>
      `{"uid":"bk_${i}","id":4611686018${427387904 + i},"title":"Call ${i}","status":"confirmed","start":"2026-01-05T09:00:00Z"}`;
    const items: string[] = [];
    for (let size = 0, i = 0; size < 63 * 2 ** 20 - 200; i++) {
      items.push(item(i));
      size += items[i]!.length + 1;
    }
    const page = Buffer.from(`{"data":[${items.join(',')}],"next_cursor":null}`);
    api = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': page.length }).end(page, () => sent++);
    });
  }, 120_000);
  afterAll(async () => {
    await receiver.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  const verdicts = (stdout: string) => stdout.split('\n').filter(Boolean).length;

  it.each([
    ['a HAR of 20,000 entries', () => har, '#19999'],
    ['a folder of 2,000 captures', () => folder, '001999.http'],
  ])(
    'webhook verify --request on %s',
    async (_, input, last) => {
      const r = await interruptWhenBusy(['webhook', 'verify', '--request', input()], { env, busy: (o) => verdicts(o.stdout) > 0 });
      expect(r.code, r.stderr).toBe(130);
      // Issue 33's second; at load 16 on 2 cores the process itself waits for a core (1,092 ms seen).
      expect(r.afterSigint).toBeLessThan(loadBudget(1_000));
      expect(r.stdout).not.toContain(last);
    },
    60_000,
  );

  // The page is scanned a megabyte at a time and parsed a batch of elements at a time, with a turn
  // between them (src/output/json-pieces.ts), then written in 20 ms slices: no step is long (under
  // 200 ms measured at load 10 on 2 cores, 1.8-3.7 s when the page was one JSON.parse). The bound is
  // issue 33's second, stretched by how overloaded the machine is (loadBudget).
  it.each([
    ['api --paginate -o ndjson', ['--paginate', '-o', 'ndjson']],
    ['api --paginate -o json', ['--paginate', '-o', 'json']],
  ])(
    'a 63 MiB page, %s',
    async (_, extra) => {
      const before = sent;
      const r = await interruptWhenBusy(['api', '/api/v1/bookings', ...extra], {
        env: { BOOKING_BASE_URL: api.url, BOOKING_API_KEY: 'sk_test_batch_0123456789' },
        busy: () => sent > before,
      });
      expect(r.code, r.stderr).toBe(130);
      expect(r.afterSigint).toBeLessThan(loadBudget(1_000));
    },
    60_000,
  );

  it('webhook send --scenario with 20,000 set lines on a 700 KB body (a 500 KB field, then 20,000 more): built at once, and stopped', async () => {
    const started = performance.now();
    let firstDelivery = 0;
    const r = await interruptWhenBusy(['webhook', 'send', `${receiver.url}/hooks`, '--scenario', scenario, '--delay', '60s'], {
      env,
      busy: () => {
        if (receiver.received.length === 0) return false;
        firstDelivery ||= performance.now() - started;
        return true;
      },
      limitMs: loadBudget(5_000),
    });
    expect(r.code, r.stderr).toBe(130);
    expect(r.afterSigint).toBeLessThan(loadBudget(1_000));
    // The 20,000 sets are applied in one pass over the body: the first delivery leaves within seconds
    // (at most 20 s on a machine at load 8 or more; a set per pass over the body took 43 s of CPU).
    expect(firstDelivery).toBeGreaterThan(0);
    expect(firstDelivery).toBeLessThan(loadBudget(5_000));
  }, 90_000);
});
