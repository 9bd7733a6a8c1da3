// `webhook verify` with a body and --signature, run through runVerify with in-memory streams.
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runVerify, type VerifyOptions } from '../../src/commands/webhook/verify/verify';
import { fixture, FIXTURE_SECRET, makeCtx, tempDir, type KitOptions } from '../helpers/webhook-kit';

const GH_SECRET = "It's a Secret to Everybody";
const GH_SIG = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
const sign = (body: string | Buffer, secret = 's3cret') => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

const tmp = tempDir({ 'gh.txt': 'Hello, World!', 'gh-lf.txt': 'Hello, World!\n' });
afterAll(() => tmp.cleanup());

async function verify(opts: VerifyOptions, kit: KitOptions = {}) {
  const ctx = makeCtx(kit);
  const code = await runVerify(opts, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}
async function verifyJson(body: string | Buffer, signature: string, extra: Partial<VerifyOptions> = {}) {
  const r = await verify({ signature, secret: 's3cret', ...extra }, { output: 'json', stdin: body });
  return {
    ...r,
    json: JSON.parse(r.out) as { authentic: boolean; event: string | null; bytes: number; reason: string | null; hints: string[] },
  };
}

describe('authentic bodies', () => {
  it("GitHub's example from a file: exit 0, a tsv line when piped", async () => {
    const r = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG }, { env: { BOOKING_WEBHOOK_SECRET: GH_SECRET } });
    expect(r).toEqual({ code: 0, out: 'authentic\t\t13\n', err: '' });
  });

  it('from stdin (no FILE, and "-"), bare upper-case hex', async () => {
    for (const file of [undefined, '-']) {
      const r = await verify({ file, signature: GH_SIG.slice(7).toUpperCase(), secret: GH_SECRET }, { stdin: 'Hello, World!' });
      expect(r.code).toBe(0);
    }
  });

  it('binary bodies with invalid UTF-8 and a BOM are checked as raw bytes', async () => {
    const body = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0xff, 0xc3, 0x28, 0x0d, 0x0a, 0x00, 0xfe]);
    const r = await verifyJson(body, sign(body));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ authentic: true, event: null, bytes: 11, reason: null, hints: [] });
  });

  it("-o json: one object, pretty, with the body's own event", async () => {
    const body = Buffer.from('{"id":"evt_1","event":"booking.created"}');
    const r = await verifyJson(body, sign(body));
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ authentic: true, event: 'booking.created', bytes: body.length, reason: null, hints: [] });
  });

  it('--event is an assertion: a valid delivery of another event is exit 1, reason event, its own event reported', async () => {
    const body = Buffer.from('{"id":"evt_1","event":"booking.created"}');
    const d = tempDir({ 'body.json': body });
    try {
      const ok = await verify(
        { file: d.path('body.json'), signature: sign(body), secret: 's3cret', event: 'booking.created' },
        { output: 'json' },
      );
      expect(ok.code).toBe(0);
      const other = await verify(
        { file: d.path('body.json'), signature: sign(body), secret: 's3cret', event: 'booking.cancelled' },
        { output: 'json' },
      );
      expect(other.code).toBe(1);
      expect(JSON.parse(other.out)).toEqual({
        authentic: false,
        event: 'booking.created',
        bytes: body.length,
        reason: 'the delivery is "booking.created", not "booking.cancelled" (--event); its signature is valid',
        hints: ['event'],
      });
      const text = await verify(
        { file: d.path('body.json'), signature: sign(body), secret: 's3cret', event: 'booking.cancelled' },
        { tty: true },
      );
      expect(text.out).toBe(
        `✗ not authentic  booking.created  ${body.length} bytes — the delivery is "booking.created", not "booking.cancelled" (--event); its signature is valid\n`,
      );
      const none = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secret: GH_SECRET, event: 'booking.created' });
      expect(none.code).toBe(1);
      expect(none.out).toBe(
        'not-authentic\t\t13\tthe body has no "event" field to check --event "booking.created" against; its signature is valid\n',
      );
    } finally {
      d.cleanup();
    }
  });

  it('-o ndjson: one line', async () => {
    const r = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secret: GH_SECRET }, { output: 'ndjson' });
    expect(r.out).toBe('{"authentic":true,"event":null,"bytes":13,"reason":null,"hints":[]}\n');
  });

  it('on a terminal: a verdict line, coloured only when colour is on', async () => {
    const plain = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secret: GH_SECRET }, { tty: true });
    expect(plain.out).toBe('✓ authentic  (no event)  13 bytes\n');
    const color = await verify({ file: tmp.path('gh-lf.txt'), signature: GH_SIG, secret: GH_SECRET }, { tty: true, color: true });
    expect(color.out).toContain('\x1b[31m✗ not authentic\x1b[39m');
    expect(color.out).toContain('14 bytes — the body matches without its trailing newline (LF)');
  });

  it('the secret from a file, less one trailing newline', async () => {
    const r = await verify({
      file: fixture('body.json'),
      signature: '77fb1bb1648f4c8406893e653a1aa17bab0a791fe55d084fa4e18e0a197fe4a8',
      secretFile: fixture('secret.txt'),
    });
    expect(r.code).toBe(0);
    expect(FIXTURE_SECRET).toHaveLength(24);
  });

  it('the secret from BOOKING_WEBHOOK_SECRET', async () => {
    const r = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG }, { env: { BOOKING_WEBHOOK_SECRET: GH_SECRET } });
    expect(r.code).toBe(0);
  });
});

describe('mismatches: exit 1 and the likely cause when it is true', () => {
  const body = '{"event":"booking.created",\r\n"uid":"bk_1"}';
  const lfBody = body.replace(/\r\n/g, '\n');

  it.each([
    ['a trailing LF', `${lfBody}\n`, lfBody, 'trailing_lf', 'without its trailing newline (LF)'],
    ['a trailing CRLF', `${lfBody}\r\n`, lfBody, 'trailing_crlf', 'without its trailing CRLF'],
    ['CRLF line ends', body, lfBody, 'crlf', 'with CRLF line ends turned to LF'],
    ['a UTF-8 BOM', `\ufeff${lfBody}`, lfBody, 'bom', 'without its leading UTF-8 BOM'],
  ])('%s', async (_what, received, signed, code, text) => {
    const r = await verifyJson(received, sign(signed));
    expect(r.code).toBe(1);
    expect(r.json.authentic).toBe(false);
    expect(r.json.hints).toEqual([code]);
    expect(r.json.reason).toContain(text);
    expect(r.out).not.toContain(sign(received).slice(7));
  });

  it.each([
    [
      'CRLF line ends and a final CRLF (unix2dos)',
      `${body}\r\n`,
      lfBody,
      ['crlf', 'trailing_lf'],
      'with CRLF line ends turned to LF and without its trailing newline (LF)',
    ],
    [
      'a BOM and a trailing LF',
      `\ufeff${lfBody}\n`,
      lfBody,
      ['bom', 'trailing_lf'],
      'without its leading UTF-8 BOM and without its trailing newline (LF)',
    ],
    [
      'a BOM and a trailing CRLF',
      `\ufeff${lfBody}\r\n`,
      lfBody,
      ['bom', 'trailing_crlf'],
      'without its leading UTF-8 BOM and without its trailing CRLF',
    ],
  ])('two changes at once: %s', async (_what, received, signed, codes, text) => {
    const r = await verifyJson(received, sign(signed));
    expect(r.code).toBe(1);
    expect(r.json.hints).toEqual(codes);
    expect(r.json.reason).toBe(`the body matches ${text}: it was changed both ways after signing (an editor, unix2dos, a copy)`);
  });

  it('the same hints for a file body (read again) as for stdin (kept while read)', async () => {
    const d = tempDir({ 'crlf.json': body });
    try {
      const r = await verify({ file: d.path('crlf.json'), signature: sign(lfBody), secret: 's3cret' }, { output: 'json' });
      expect(JSON.parse(r.out).hints).toEqual(['crlf']);
    } finally {
      d.cleanup();
    }
  });

  it('no hint when none is true; the expected signature is never printed', async () => {
    const r = await verifyJson(lfBody, sign(lfBody, 'other'));
    expect(r.json.hints).toEqual([]);
    expect(r.json.reason).toBe('the signature does not match the body: a different secret, or the body was changed');
    expect(r.out + r.err).not.toContain(sign(lfBody).slice(7));
  });
});

describe('usage errors: exit 2', () => {
  it.each(['sha256=abc', `sha1=${'a'.repeat(40)}`, `sha256:${'a'.repeat(64)}`, 'a'.repeat(63), 'z'.repeat(64), ` ${'a'.repeat(64)}`, ''])(
    '--signature %j',
    async (signature) => {
      await expect(verify({ file: tmp.path('gh.txt'), signature, secret: 'x' })).rejects.toMatchObject({ exitCode: 2 });
    },
  );

  it.each([
    ['an empty --secret', { secret: '' }, {}],
    ['an empty BOOKING_WEBHOOK_SECRET', {}, { env: { BOOKING_WEBHOOK_SECRET: '' } }],
    ['a secret file holding only a newline', { secretFile: 'EMPTY' }, {}],
    ['no secret and no terminal to ask on', {}, {}],
  ])('%s', async (_what, opts: Partial<VerifyOptions>, kit: KitOptions) => {
    const d = tempDir({ EMPTY: '\n' });
    try {
      const o = { ...opts, secretFile: opts.secretFile && d.path(opts.secretFile as string) };
      await expect(verify({ file: tmp.path('gh.txt'), signature: GH_SIG, ...o }, kit)).rejects.toMatchObject({ exitCode: 2 });
    } finally {
      d.cleanup();
    }
  });

  it('no secret and no terminal: the message points at --secret-file and the environment, not --secret', async () => {
    await expect(verify({ file: tmp.path('gh.txt'), signature: GH_SIG })).rejects.toThrow(
      /^no webhook signing secret given and no terminal to ask on; give it with --secret-file FILE or BOOKING_WEBHOOK_SECRET \(--secret/,
    );
  });

  it('a secret with surrounding whitespace is used as given, with a warning', async () => {
    const r = await verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secret: `${GH_SECRET} ` });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^warning: the signing secret from --secret starts or ends with whitespace/m);
  });

  it('an unreadable body, a missing secret file, or both --secret and --secret-file', async () => {
    await expect(verify({ file: tmp.path('nope.txt'), signature: GH_SIG, secret: 'x' })).rejects.toThrow(
      /cannot read .*nope.txt: no such file/,
    );
    await expect(verify({ file: tmp.dir, signature: GH_SIG, secret: 'x' })).rejects.toThrow(/it is a folder/);
    await expect(verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secretFile: tmp.path('nope') })).rejects.toMatchObject({
      exitCode: 2,
    });
    await expect(verify({ file: tmp.path('gh.txt'), signature: GH_SIG, secret: 'x', secretFile: 'y' })).rejects.toMatchObject({
      exitCode: 2,
    });
  });

  it('neither --signature nor --request, both, or FILE with --request', async () => {
    await expect(verify({ file: tmp.path('gh.txt'), secret: 'x' })).rejects.toThrow(/--signature SIG .* or --request/);
    await expect(verify({ signature: GH_SIG, request: ['a'], secret: 'x' })).rejects.toMatchObject({ exitCode: 2 });
    await expect(verify({ file: 'x', request: ['a'], secret: 'x' })).rejects.toMatchObject({ exitCode: 2 });
  });
});
