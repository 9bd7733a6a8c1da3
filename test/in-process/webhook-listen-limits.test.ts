// `webhook listen` as a receiver that holds: the --events filter, 405 for anything but POST, the
// in-flight budget (503), the save folder's cap (--max-saved), a failed save (500, no file), many
// forwards at once without a listener-leak warning, tsv columns that keep their meaning, and a saved
// capture replayed with `send --request` that verifies at the receiver.
import { createServer, request } from 'node:http';
import { createHmac } from 'node:crypto';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runSend, type SendOptions } from '../../src/commands/webhook/send/send';
import { makeCtx, tempDirsPerTest, type KitOptions } from '../helpers/webhook-kit';
import { LISTEN_SECRET, startListen } from '../helpers/listen-kit';
import { until } from '../helpers/until';
import { runMain } from '../helpers/in-process';

const sign = (body: Buffer) => `sha256=${createHmac('sha256', LISTEN_SECRET).update(body).digest('hex')}`;

async function send(opts: Partial<SendOptions> & { url: string }, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'tsv', ...kit });
  const code = await runSend({ event: 'booking.created', secret: LISTEN_SECRET, ...opts }, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

/** One raw request; resolves with the status and the body of the answer. */
function post(
  url: string,
  body: Buffer,
  opts: { method?: string; event?: string; hold?: boolean } = {},
): { done: Promise<{ status: number; text: string }>; finish(): void } {
  const req = request(url, {
    method: opts.method ?? 'POST',
    headers: {
      'content-length': String(body.length),
      'x-service-event': opts.event ?? 'booking.created',
      'x-service-signature': sign(body),
    },
  });
  const done = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c)).on('end', () => resolve({ status: res.statusCode!, text }));
    });
    req.on('error', reject);
  });
  // Held: all but the last byte, so the body stays in flight until finish().
  if (opts.hold) req.write(body.subarray(0, -1));
  else req.end(body);
  return { done, finish: () => req.end(body.subarray(-1)) };
}

const newDir = tempDirsPerTest();

describe('what listen lets in', () => {
  it('--events filters authentic deliveries only: an unsigned POST is 401 and shown, whatever event it claims', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir, events: ['booking.cancelled'] });
    const unsigned = await new Promise<number>((resolve, reject) => {
      const req = request(l.url, { method: 'POST', headers: { 'content-type': 'application/json' } });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode!);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(unsigned).toBe(401);
    // An authentic delivery of another event is the one the filter counts and answers 200.
    const other = post(l.url, Buffer.from('{"event":"booking.created"}'), { event: 'booking.created' });
    expect((await other.done).status).toBe(200);
    await until(() => l.out().includes('not-authentic'), 'the unsigned delivery shown');
    await l.stop();
    expect(l.out()).toMatch(/not-authentic/);
    expect(l.err()).toContain('Stopped. 1 delivery of other events answered 200 and not shown (--events).');
  });

  it('--events: only those are printed and forwarded; others are answered 200 and counted', async () => {
    const forwarded: string[] = [];
    const app = createServer(
      (req, res) => (forwarded.push(String(req.headers['x-service-event'])), req.resume(), res.writeHead(204).end()),
    );
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    try {
      const d = newDir();
      const l = await startListen({
        saveDir: d.dir,
        events: ['booking.created'],
        forwardTo: `http://127.0.0.1:${(app.address() as { port: number }).port}/`,
      });
      for (const event of ['booking.created', 'booking.cancelled', 'booking.cancelled'] as const)
        expect((await send({ url: l.url, event })).code).toBe(0);
      await until(() => l.out().includes('forwarded'), 'the forward');
      await l.stop();
      expect(l.column(2)).toEqual(['authentic', 'forwarded']);
      expect(forwarded).toEqual(['booking.created']);
      expect(readdirSync(d.dir)).toHaveLength(1);
      expect(l.err()).toContain('Stopped. 2 deliveries of other events answered 200 and not shown (--events).');
    } finally {
      await new Promise<void>((r) => app.close(() => r()));
    }
  });

  it("--scheme cal --events booking.created takes Cal.com's name too (BOOKING_REQUESTED); a name of neither kind is warned of", async () => {
    const d = newDir();
    const l = await startListen({
      saveDir: d.dir,
      scheme: 'cal',
      secret: 'whsec_c2NoZW1lcw==',
      events: ['booking.created', 'booking.canceled'],
    });
    const sent = await runMain(['webhook', 'send', l.url, '--scheme', 'cal', '--scenario', 'cancel', '--secret', 'whsec_c2NoZW1lcw==']);
    expect(sent.code, sent.stderr).toBe(0);
    await until(() => l.out().includes('BOOKING_REQUESTED'), 'the BOOKING_REQUESTED line');
    await l.stop();
    expect(l.column(1)).toEqual(['BOOKING_REQUESTED']);
    expect(l.err()).toMatch(
      /warning: --events: booking\.canceled is not an event the service sends \(.*; or Cal\.com's, such as BOOKING_REQUESTED/,
    );
  });

  it('anything but a POST: 405, nothing saved, no delivery line', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir });
    const r = await post(l.url, Buffer.from(''), { method: 'GET' }).done;
    expect(r).toEqual({ status: 405, text: '{"ok":false,"error":"deliveries are POST requests"}\n' });
    await l.stop();
    expect(l.out()).toBe('');
    expect(() => readdirSync(d.dir)).not.toThrow();
    expect(readdirSync(d.dir)).toEqual([]);
    expect(l.err()).toContain('GET /webhooks answered 405');
  });

  it('bodies in flight beyond the budget: 503 at once, and the held one still goes through', async () => {
    const l = await startListen({ save: false, maxInFlight: 1024 * 1024 });
    const body = Buffer.alloc(700 * 1024, 'x');
    const first = post(l.url, body, { hold: true });
    // The held body reserves its room once its head is read: probe until a second one is refused.
    let refused: { status: number; text: string } | undefined;
    for (let i = 0; i < 200 && !refused; i++) {
      const r = await post(l.url, body).done;
      if (r.status === 503) refused = r;
    }
    expect(refused).toEqual({ status: 503, text: '{"ok":false,"error":"too many deliveries at once"}\n' });
    first.finish();
    expect((await first.done).status).toBe(200);
    // The room is given back: the next one fits.
    expect((await post(l.url, body).done).status).toBe(200);
    await l.stop();
    expect(l.err()).toMatch(/warning: answered 503 to 127\.0\.0\.1: over 1 MiB of deliveries were already being handled\./);
  });
});

describe('a refused sender still sending', () => {
  it('gets the whole 503 and sends the rest of its body without an error (read and dropped, not cut)', async () => {
    const l = await startListen({ save: false, maxInFlight: 1024 * 1024 });
    const body = Buffer.alloc(16 * 1024 * 1024, 'x');
    // Refused once its first MiB is in, while ~15 MiB are still to come: a cut connection would be
    // an error here (EPIPE, ECONNRESET), or an answer without its end.
    const seen: string[] = [];
    const req = request(l.url, { method: 'POST', headers: { 'content-length': String(body.length), 'x-service-signature': sign(body) } });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c)).on('end', () => seen.push(`${res.statusCode} ${text.trim()}`));
    });
    req.on('finish', () => seen.push('body sent'));
    req.on('error', (e: NodeJS.ErrnoException) => seen.push(`error ${e.code}`));
    const closed = new Promise((resolve) => req.on('close', resolve));
    req.end(body);
    await until(() => seen.length >= 2, 'the answer and the end of the body');
    await closed;
    expect(seen.sort()).toEqual(['503 {"ok":false,"error":"too many deliveries at once"}', 'body sent']);
    await l.stop();
  });
});

describe('saving', () => {
  it('--max-saved: beyond it deliveries are verified and answered but not saved, with one warning; no empty files', async () => {
    const d = newDir();
    writeFileSync(d.path('old.http'), Buffer.alloc(1500));
    const l = await startListen({ saveDir: d.dir, maxSaved: 3000 });
    const body = Buffer.alloc(600, 'x');
    for (let i = 0; i < 4; i++) expect((await post(l.url, body).done).status).toBe(200);
    await l.stop();
    const files = readdirSync(d.dir);
    // 1500 bytes were there: one capture of some 800 bytes fits, a second would take it past 3000.
    expect(files).toHaveLength(2);
    expect(files.map((f) => statSync(d.path(f)).size).every((n) => n > 0)).toBe(true);
    expect(l.err().match(/holds --max-saved/g)).toHaveLength(1);
    expect(l.err()).toContain(`warning: ${d.dir}`);
    const rows = l
      .out()
      .split('\n')
      .slice(0, -1)
      .map((x) => x.split('\t'));
    expect(rows.map((r) => [r[2], r[6] === '' ? 'not saved' : 'saved'])).toEqual([
      ['authentic', 'saved'],
      ['authentic', 'not saved'],
      ['authentic', 'not saved'],
      ['authentic', 'not saved'],
    ]);
  });

  it('a save that fails: 500, no file left, one warning, not forwarded', async () => {
    const d = newDir();
    writeFileSync(d.path('a-file'), '');
    const l = await startListen({ saveDir: d.path('a-file/caps'), forwardTo: 'http://127.0.0.1:9/' });
    const r = await post(l.url, Buffer.from('{}')).done;
    expect(r).toEqual({ status: 500, text: '{"ok":false,"error":"could not save the delivery"}\n' });
    await l.stop();
    expect(readdirSync(d.dir)).toEqual(['a-file']);
    expect(l.err().match(/^warning: could not save a delivery in .*a-file\/caps \(answered 500\): .*ENOTDIR/gm)).toHaveLength(1);
    // Its line still comes (no capture, answered 500), and no forward's.
    const lines = l.out().trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]!.split('\t').slice(2, 5)).toEqual(['authentic', '', '']);
    expect(lines[0]!.split('\t').slice(6)).toEqual(['', '1', '', '500']);
  });
});

describe('forwarding', () => {
  it('more than 10 forwards at once: no MaxListenersExceededWarning', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    let arrived = 0;
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const app = createServer((req, res) => (arrived++, req.resume(), void held.then(() => res.writeHead(204).end())));
    await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
    try {
      const l = await startListen({ save: false, forwardTo: `http://127.0.0.1:${(app.address() as { port: number }).port}/` });
      const sends = Array.from({ length: 15 }, () => send({ url: l.url }));
      expect((await Promise.all(sends)).map((s) => s.code)).toEqual(Array(15).fill(0));
      await until(() => arrived === 15, '15 forwards held at the app');
      release();
      await until(() => (l.out().match(/\tforwarded\t/g) ?? []).length === 15, '15 forward lines');
      await l.stop();
      // Warnings are emitted on the next tick.
      await new Promise((r) => setImmediate(r));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      release();
      process.off('warning', onWarning);
      await new Promise<void>((r) => app.close(() => r()));
    }
  });

  it('piped: a failed forward keeps the columns (status empty, the failure in the reason column)', async () => {
    const l = await startListen({ save: false, forwardTo: 'http://127.0.0.1:9/' });
    expect((await send({ url: l.url })).code).toBe(0);
    await until(() => l.out().includes('forward-failed'), 'the forward line');
    await l.stop();
    const row = l.out().split('\n')[1]!.split('\t');
    // The empty columns after the reason are left off (cut and awk read them as empty all the same).
    expect(row.slice(2)).toEqual([
      'forward-failed',
      expect.stringMatching(/^bk_/),
      '',
      'cannot reach http://127.0.0.1:9: connection refused.',
    ]);
  });
});

describe('replay', () => {
  it('a capture listen saved, sent again with send --request, verifies at the receiver', async () => {
    const d = newDir();
    const l = await startListen({ saveDir: d.dir });
    expect((await send({ url: l.url, event: 'booking.rescheduled' })).code).toBe(0);
    const [saved] = readdirSync(d.dir);
    expect((await send({ url: l.url, request: d.path(saved!), event: undefined, secret: undefined })).code).toBe(0);
    await l.stop();
    const rows = l
      .out()
      .trimEnd()
      .split('\n')
      .map((x) => x.split('\t'));
    expect(rows.map((r) => [r[1], r[2], r[3]])).toEqual([
      ['booking.rescheduled', 'authentic', rows[0]![3]],
      ['booking.rescheduled', 'authentic', rows[0]![3]],
    ]);
  });
});
