// Secret rotation: several secrets (--secret-file repeated, a file with one secret a line, the
// environment one a line, --secret repeated); a delivery signed with any of them is authentic and the
// verdict names the one that matched; one signed with none is not; send signs with the first.
import { startReceiver, type Receiver } from '../helpers/receiver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSend } from '../../src/commands/webhook/send/send';
import { runVerify, type VerifyOptions } from '../../src/commands/webhook/verify/verify';
import { runMain } from '../helpers/in-process';
import { makeCtx, signed, signedCapture, tempDir, type KitOptions } from '../helpers/webhook-kit';
import { startListen } from '../helpers/listen-kit';

const OLD = 'whsec_old_0123';
const NEW = 'whsec_new_4567';
const BODY = '{"id":"evt_1","event":"booking.created","data":{"booking":{"uid":"bk_1"}}}';
const sign = signed;
const capture = (secret: string, body = BODY) => signedCapture(body, secret);

const tmp = tempDir({
  'old.txt': `${OLD}\n`,
  'new.txt': `${NEW}\n`,
  'both.txt': `${OLD}\n\n${NEW}\n`,
  'blank.txt': '\n\n',
  'spaced.txt': `${OLD}\n${NEW} \n`,
  'signed-old.http': capture(OLD),
  'signed-new.http': capture(NEW, BODY.replace('evt_1', 'evt_2')),
  'signed-other.http': capture('whsec_someone_else', BODY.replace('evt_1', 'evt_3')),
});
afterAll(() => tmp.cleanup());
const caps = ['signed-old.http', 'signed-new.http', 'signed-other.http'].map((n) => tmp.path(n));

async function verify(opts: Partial<VerifyOptions>, kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'json', ...kit });
  const code = await runVerify({ request: caps, ...opts } as VerifyOptions, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

describe('verify with several secrets', () => {
  it('--secret-file twice: old and new both verify, each naming its file; one signed with neither is not authentic', async () => {
    const r = await verify({ secretFile: [tmp.path('old.txt'), tmp.path('new.txt')] });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject([
      { authentic: true, secret: tmp.path('old.txt') },
      { authentic: true, secret: tmp.path('new.txt') },
      {
        authentic: false,
        secret: null,
        reason: 'the signature does not match the body under any of the 2 secrets: a different secret, or the body was changed',
      },
    ]);
  });

  it('one file with a secret a line: labelled by line (empty lines skipped); tsv has the secret in its column', async () => {
    const r = await verify({ secretFile: tmp.path('both.txt') }, { output: 'tsv' });
    const rows = r.out
      .slice(0, -1)
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows.map((f) => [f[0], f[6] ?? ''])).toEqual([
      ['authentic', `${tmp.path('both.txt')}:1`],
      ['authentic', `${tmp.path('both.txt')}:3`],
      ['not-authentic', ''],
    ]);
  });

  it('on a terminal the line names the secret that matched', async () => {
    const r = await verify({ request: [caps[1]!], secretFile: tmp.path('both.txt') }, { output: 'table' });
    expect(r.out).toBe(`✓ authentic  booking.created  ${BODY.length} bytes  ${caps[1]}  secret ${tmp.path('both.txt')}:3\n`);
  });

  it('BOOKING_WEBHOOK_SECRET with one secret a line', async () => {
    const r = await verify({}, { env: { BOOKING_WEBHOOK_SECRET: `${NEW}\n${OLD}` } });
    expect(JSON.parse(r.out).map((v: { secret: string | null }) => v.secret)).toEqual([
      'BOOKING_WEBHOOK_SECRET:2',
      'BOOKING_WEBHOOK_SECRET:1',
      null,
    ]);
  });

  it('--secret repeated: by position', async () => {
    const r = await verify({ secret: [NEW, OLD] });
    expect(JSON.parse(r.out).map((v: { secret: string | null }) => v.secret)).toEqual(['--secret #2', '--secret #1', null]);
  });

  it('one secret: no secret field, as before', async () => {
    const r = await verify({ request: [caps[0]!], secretFile: tmp.path('old.txt') });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)[0]).not.toHaveProperty('secret');
  });

  it('a whitespace warning names the secret it is about', async () => {
    const r = await verify({ request: [caps[0]!], secretFile: tmp.path('spaced.txt') });
    expect(r.err).toBe(
      `warning: the signing secret from ${tmp.path('spaced.txt')}:2 starts or ends with whitespace; it is used as given (the dashboard's secret has none, was it copied with a space or newline?).\n`,
    );
  });

  it('a file with only empty lines is a usage error naming it', async () => {
    await expect(verify({ secretFile: [tmp.path('old.txt'), tmp.path('blank.txt')] })).rejects.toMatchObject({
      exitCode: 2,
      message: `the webhook signing secret from ${tmp.path('blank.txt')} is empty.`,
    });
  });

  it('through the whole program: --secret-file given twice', async () => {
    const r = await runMain([
      'webhook',
      'verify',
      '--request',
      caps[1]!,
      '--secret-file',
      tmp.path('old.txt'),
      '--secret-file',
      tmp.path('new.txt'),
      '--json',
    ]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject([{ authentic: true, secret: tmp.path('new.txt') }]);
  });

  it('a mismatch explained under the secret that signed it names that secret', async () => {
    const d = tempDir({ 'nl.http': `${capture(NEW).replace(`Content-Length: ${BODY.length}`, `Content-Length: ${BODY.length + 1}`)}\n` });
    try {
      const r = await verify({ request: [d.path('nl.http')], secretFile: tmp.path('both.txt') });
      expect(JSON.parse(r.out)[0]).toMatchObject({ authentic: false, hints: ['trailing_lf'], secret: null });
      expect(JSON.parse(r.out)[0].reason).toMatch(/without its trailing newline .*\(with the secret from .*both\.txt:3\)$/);
    } finally {
      d.cleanup();
    }
  });
});

describe('listen and send with several secrets', () => {
  let receiver: Receiver;
  let url: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    url = `${receiver.url}/hooks`;
  });
  afterAll(() => receiver.close());

  it('send signs with the first secret and says so', async () => {
    const ctx = makeCtx({ output: 'json' });
    const code = await runSend({ url, event: 'booking.created', secretFile: [tmp.path('new.txt'), tmp.path('old.txt')] }, ctx);
    expect(code).toBe(0);
    const last = receiver.received.at(-1)!;
    expect(last.headers['x-service-signature']).toBe(sign(last.body.toString(), NEW));
    expect(ctx.io.err()).toBe(`Signing with the first of 2 secrets: ${tmp.path('new.txt')}.\n`);
  });

  it('listen accepts deliveries signed with either secret and names the one that matched', async () => {
    const l = await startListen({ secret: undefined, secretFile: [tmp.path('old.txt'), tmp.path('new.txt')], save: false });
    try {
      for (const s of [OLD, NEW, 'whsec_someone_else']) {
        const res = await fetch(l.url, {
          method: 'POST',
          headers: { 'x-service-event': 'booking.created', 'x-service-signature': sign(BODY, s) },
          body: BODY,
        });
        await res.arrayBuffer();
      }
      const rows = l
        .out()
        .slice(0, -1)
        .split('\n')
        .map((line) => line.split('\t'));
      expect(rows.map((f) => [f[2], f[10] ?? ''])).toEqual([
        ['authentic', tmp.path('old.txt')],
        ['authentic', tmp.path('new.txt')],
        ['not-authentic', ''],
      ]);
    } finally {
      await l.stop();
    }
  });
});
