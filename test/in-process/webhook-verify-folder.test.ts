// `verify --request DIR`: every *.http in the folder, in name order, the exit the worst result; and a
// delivery with neither header names the missing signature first.
import { createHmac } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { makeCtx, tempDir } from '../helpers/webhook-kit';

const SECRET = 's3cret';
const BODY = '{"event":"booking.created"}';
const sign = (body: string, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const cap = (headers: string[]) => ['POST /hooks HTTP/1.1', ...headers, `Content-Length: ${BODY.length}`, '', BODY].join('\r\n');
const good = cap(['X-Service-Event: booking.created', `X-Service-Signature: ${sign(BODY)}`]);

const tmp = tempDir({
  'b.http': good,
  'a.http': good,
  'c.http': cap(['X-Service-Event: booking.created', `X-Service-Signature: ${sign(BODY, 'x')}`]),
  'notes.txt': 'not a capture',
});
mkdirSync(tmp.path('empty'));
afterAll(() => tmp.cleanup());

async function verify(request: string[], event?: string) {
  const ctx = makeCtx({ output: 'tsv', env: { BOOKING_WEBHOOK_SECRET: SECRET } });
  const code = await runVerify({ request, event }, ctx);
  return {
    code,
    rows: ctx.io
      .out()
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t')),
    err: ctx.io.err(),
  };
}

describe('verify --request DIR', () => {
  it('checks every *.http in name order; exit 1 when one is not authentic', async () => {
    const r = await verify([tmp.dir]);
    expect(r.code).toBe(1);
    expect(r.rows.map((f) => [f[0], f[4]])).toEqual([
      ['authentic', tmp.path('a.http')],
      ['authentic', tmp.path('b.http')],
      ['not-authentic', tmp.path('c.http')],
    ]);
  });

  it('a folder with no captures is exit 2 in its place; the others are still checked', async () => {
    const r = await verify([tmp.path('empty'), tmp.path('a.http')]);
    expect(r.code).toBe(2);
    expect(r.err).toBe(`error: ${tmp.path('empty')} is a folder with no *.http or *.har captures in it.\n`);
    expect(r.rows).toHaveLength(1);
  });

  it('with --event, a capture of another event is exit 1 and reports its own event', async () => {
    const r = await verify([tmp.path('a.http')], 'booking.cancelled');
    expect(r.code).toBe(1);
    expect(r.rows[0]!.slice(0, 4)).toEqual([
      'not-authentic',
      'booking.created',
      String(BODY.length),
      'the delivery is "booking.created", not "booking.cancelled" (--event); its signature is valid',
    ]);
  });
});

describe('missing headers', () => {
  it('neither header: the missing signature is named first', async () => {
    const d = tempDir({ 'bare.http': cap([]) });
    try {
      const r = await verify([d.path('bare.http')]);
      expect(r.code).toBe(1);
      expect(r.rows[0]![3]).toBe('no X-Service-Signature header; no X-Service-Event header');
    } finally {
      d.cleanup();
    }
  });
});
