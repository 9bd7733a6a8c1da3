// `webhook verify --request`: raw HTTP captures read by node's own parser, one verdict each.
import { createHmac } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { runVerify, type VerifyOptions } from '../../src/commands/webhook/verify/verify';
import { readFileSync } from 'node:fs';
import { CaptureParser } from '../../src/webhook/capture';
import { parseCaptureFile } from '../../src/webhook/reader';
import { fixture, FIXTURE_SECRET, makeCtx, tempDir, type KitOptions } from '../helpers/webhook-kit';

const SECRET = 's3cret';
const sign = (body: string | Buffer, secret = SECRET) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
const BODY = '{"event":"booking.cancelled","data":{"booking":{"uid":"bk_9"}}}';

/** A capture: request line, headers, blank line, body, with the given line ends. */
function capture(headers: string[], body: string | Buffer, eol = '\r\n'): Buffer {
  return Buffer.concat([Buffer.from(['POST /hook HTTP/1.1', 'Host: 127.0.0.1', ...headers, '', ''].join(eol)), Buffer.from(body)]);
}
const signed = (body: string, extra: string[] = [], eol = '\r\n') =>
  capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(body)}`, `Content-Length: ${Buffer.byteLength(body)}`, ...extra],
    body,
    eol,
  );

const tmp = tempDir({
  'ok.http': signed(BODY),
  'ok-lf.http': signed(BODY, [], '\n'),
  'editor-newline.http': Buffer.concat([signed(BODY), Buffer.from('\n')]),
  'no-length.http': capture(['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY)}`], BODY),
  'no-length-lf.http': capture(['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY)}`], BODY, '\n'),
  'upper.http': capture(
    ['x-service-event: booking.cancelled', `X-SERVICE-SIGNATURE: ${sign(BODY)}`, `content-length: ${BODY.length}`],
    BODY,
  ),
  'sig-padded.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: \t ${sign(BODY)} \t`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-upper-hex.http': capture(
    [
      'X-Service-Event: booking.cancelled',
      `X-Service-Signature: sha256=${sign(BODY).slice(7).toUpperCase()}`,
      `Content-Length: ${BODY.length}`,
    ],
    BODY,
  ),
  'sig-bare.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY).slice(7)}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-bare-upper.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY).slice(7).toUpperCase()}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-upper-prefix.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: SHA256=${sign(BODY).slice(7)}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-sha1.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: sha1=${'a'.repeat(40)}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-short.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY).slice(0, -1)}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-nothex.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: sha256=${'g'.repeat(64)}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'sig-empty.http': capture(['X-Service-Event: booking.cancelled', 'X-Service-Signature: ', `Content-Length: ${BODY.length}`], BODY),
  'bad-header.http': capture(
    ['X-Service-Event: booking.cancelled', 'X-Service-Signature: sha256=nothex', `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'two-sigs.http': capture(
    [
      'X-Service-Event: booking.cancelled',
      `X-Service-Signature: ${sign(BODY)}`,
      `X-Service-Signature: ${sign(BODY)}`,
      `Content-Length: ${BODY.length}`,
    ],
    BODY,
  ),
  'many-headers.http': signed(
    BODY,
    Array.from({ length: 40 }, (_, i) => `X-Filler-${i}: ${i}`),
  ),
  'trailing-lf.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY)}`, `Content-Length: ${BODY.length + 1}`],
    `${BODY}\n`,
  ),
  'crlf-body.http': (() => {
    const lf = '{\n  "uid": "bk_9"\n}';
    const crlf = lf.replace(/\n/g, '\r\n');
    return capture(['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(lf)}`, `Content-Length: ${crlf.length}`], crlf);
  })(),
  'other-event.http': capture(
    ['X-Service-Event: booking.cancelled', `X-Service-Signature: ${sign(BODY, 'another endpoint')}`, `Content-Length: ${BODY.length}`],
    BODY,
  ),
  'no-event.http': capture([`X-Service-Signature: ${sign(BODY)}`, `Content-Length: ${BODY.length}`], BODY),
  'two-events.http': capture(
    [
      'X-Service-Event: booking.cancelled',
      'X-Service-Event: booking.created',
      `X-Service-Signature: ${sign(BODY)}`,
      `Content-Length: ${BODY.length}`,
    ],
    BODY,
  ),
  'mixed-ends.http': `POST /hook HTTP/1.1\nX-Service-Event: booking.cancelled\nX-Service-Signature: ${sign(BODY)}\n\r\n${BODY}`,
  'garbage.http': 'this is not HTTP\n',
  'empty.http': '',
  'truncated.http': capture([`X-Service-Signature: ${sign(BODY)}`, `Content-Length: ${BODY.length + 10}`], BODY),
  'no-blank-line.http': 'POST /hook HTTP/1.1\r\nHost: x\r\n',
});
afterAll(() => tmp.cleanup());
const at = (...names: string[]) => names.map((n) => tmp.path(n));

type Out = { file: string; authentic: boolean; event: string | null; bytes: number; reason: string | null; hints: string[] };
async function verify(opts: Partial<VerifyOptions> & { request: string[] }, kit: KitOptions = {}) {
  // The secret as a script gives it (the environment): --secret on the command line draws a warning.
  const ctx = makeCtx({ output: 'json', env: { BOOKING_WEBHOOK_SECRET: (opts.secret as string | undefined) ?? SECRET }, ...kit });
  const code = await runVerify({ ...opts, secret: undefined }, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err(), json: () => JSON.parse(ctx.io.out()) as Out[] };
}

describe('captures that are authentic', () => {
  it.each(['capture-crlf.http', 'capture-lf.http', 'capture-chunked.http', 'capture-chunked-lf.http'])(
    'fixture %s (CRLF, LF, chunked)',
    async (name) => {
      const r = await verify({ request: [fixture(name)], secret: FIXTURE_SECRET });
      expect(r.code).toBe(0);
      expect(r.json()).toEqual([
        { file: fixture(name), authentic: true, event: 'booking.created', bytes: 244, reason: null, hints: [], duplicateOf: null },
      ]);
    },
  );

  it.each([
    'ok.http',
    'ok-lf.http',
    'editor-newline.http',
    'no-length.http',
    'no-length-lf.http',
    'upper.http',
    'sig-padded.http',
    'many-headers.http',
    'mixed-ends.http',
  ])('%s', async (name) => {
    const r = await verify({ request: at(name) });
    expect(r.json()[0]).toMatchObject({ authentic: true, bytes: BODY.length });
    expect(r.code).toBe(0);
  });

  it('several in one run: an array in order; tsv names each file last', async () => {
    const files = at('ok.http', 'ok-lf.http', 'upper.http');
    expect((await verify({ request: files })).json().map((o) => o.file)).toEqual(files);
    const tsv = await verify({ request: files }, { output: 'tsv' });
    expect(tsv.out.split('\n')[0]).toBe(`authentic\tbooking.cancelled\t${BODY.length}\t\t${files[0]}`);
  });

  it('ndjson: one object per capture', async () => {
    const r = await verify({ request: at('ok.http', 'ok-lf.http') }, { output: 'ndjson' });
    expect(
      r.out
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l).authentic),
    ).toEqual([true, true]);
  });
});

describe('captures that are not authentic: exit 1', () => {
  it.each([
    ['capture-tampered.http', 'the signature does not match the body'],
    ['capture-nosig.http', 'no X-Service-Signature header'],
  ])('fixture %s', async (name, reason) => {
    const r = await verify({ request: [fixture(name)], secret: FIXTURE_SECRET });
    expect(r.code).toBe(1);
    expect(r.json()[0]!.reason).toContain(reason);
  });

  it.each([
    ['bad-header.http', 'malformed X-Service-Signature header', []],
    ['two-sigs.http', 'more than one X-Service-Signature header', []],
    ['trailing-lf.http', 'without its trailing newline (LF)', ['trailing_lf']],
    ['crlf-body.http', 'with CRLF line ends turned to LF', ['crlf']],
  ])('%s', async (name, reason, hints) => {
    const r = await verify({ request: at(name) });
    expect(r.code).toBe(1);
    expect(r.json()[0]).toMatchObject({ authentic: false, hints });
    expect(r.json()[0]!.reason).toContain(reason);
  });

  it.each([
    ['no-event.http', 'no X-Service-Event header (the signature matches the body)'],
    ['two-events.http', 'more than one X-Service-Event header (the signature matches the body)'],
  ])('%s: not authentic, as the contract has it for a missing or malformed header', async (name, reason) => {
    const r = await verify({ request: at(name) });
    expect(r.code).toBe(1);
    expect(r.json()[0]).toMatchObject({ authentic: false, reason });
  });

  // The header is strict, as the spec writes it (sha256= and lowercase hex); only --signature is lenient.
  it.each([
    ['sig-upper-hex.http', 'it has upper-case hex digits'],
    ['sig-bare.http', 'it lacks the sha256= prefix'],
    ['sig-bare-upper.http', 'it lacks the sha256= prefix'],
    ['sig-upper-prefix.http', 'it starts with "SHA256=", not sha256='],
    ['sig-sha1.http', 'it starts with "sha1=", not sha256='],
    ['sig-short.http', '63 hex digits after sha256=, not 64'],
    ['sig-nothex.http', 'what follows sha256= is not hex digits'],
    ['sig-empty.http', 'it is empty'],
  ])("a signature header not in the spec's form, %s: not authentic, saying what is wrong", async (name, what) => {
    const r = await verify({ request: at(name) }, { output: 'tsv' });
    expect(r.code).toBe(1);
    expect(r.out).toBe(
      `not-authentic\tbooking.cancelled\t${BODY.length}\tmalformed X-Service-Signature header: ${what} (the service sends sha256= and 64 lowercase hex digits)\t${tmp.path(name)}\n`,
    );
  });

  it('the same digest is accepted by --signature in any of those forms', async () => {
    const d = tempDir({ 'body.json': BODY });
    try {
      for (const signature of [sign(BODY).slice(7), sign(BODY).slice(7).toUpperCase(), `sha256=${sign(BODY).slice(7).toUpperCase()}`]) {
        const ctx = makeCtx();
        expect(await runVerify({ file: d.path('body.json'), signature, secret: SECRET }, ctx)).toBe(0);
      }
    } finally {
      d.cleanup();
    }
  });

  it('the event header differs from --event: named among the causes', async () => {
    const r = await verify({ request: at('other-event.http'), event: 'booking.created' });
    expect(r.json()[0]!.hints).toEqual(['event']);
    expect(r.json()[0]!.reason).toContain('the delivery is "booking.cancelled", not "booking.created" (--event)');
  });

  it('an authentic capture of another event than --event: exit 1, reason event, its own event reported', async () => {
    const r = await verify({ request: at('ok.http'), event: 'booking.created' });
    expect(r.code).toBe(1);
    expect(r.json()[0]).toMatchObject({
      authentic: false,
      event: 'booking.cancelled',
      hints: ['event'],
      reason: 'the delivery is "booking.cancelled", not "booking.created" (--event); its signature is valid',
    });
    expect(r.err).toBe('');
  });

  it('one bad among good ones: exit 1, every capture reported', async () => {
    const r = await verify({ request: at('ok.http', 'bad-header.http', 'ok-lf.http') });
    expect(r.code).toBe(1);
    expect(r.json().map((o) => o.authentic)).toEqual([true, false, true]);
  });
});

describe('captures that cannot be read: exit 2, the others still checked', () => {
  it.each([
    ['garbage.http', /is not an HTTP request capture/],
    ['empty.http', /is empty/],
    ['truncated.http', /ends before the request does/],
    ['no-blank-line.http', /ends before the request does/],
    ['missing.http', /cannot read .*missing.http: no such file/],
  ])('%s', async (name, message) => {
    const r = await verify({ request: at(name, 'ok.http') }, { output: 'tsv' });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.out).toMatch(/^authentic\t/);
  });

  it('the parser is reusable after a failure', () => {
    expect(() => parseCaptureFile(tmp.path('garbage.http'), () => {})).toThrow();
    const chunks: Buffer[] = [];
    const head = parseCaptureFile(tmp.path('ok.http'), (c) => chunks.push(Buffer.from(c)));
    expect(head.method).toBe('POST');
    expect(head.url).toBe('/hook');
    expect(Buffer.concat(chunks).toString()).toBe(BODY);
  });
});

describe('a capture that arrives in pieces (a pipe may hand it over a byte at a time)', () => {
  /** The head and body, or the error, of one parse; `parse` gets the body's sink. */
  const outcome = (parse: (sink: (c: Buffer) => void) => unknown) => {
    const body: Buffer[] = [];
    try {
      const head = parse((c) => body.push(Buffer.from(c)));
      return { head, body: Buffer.concat(body).toString('latin1') };
    } catch (err) {
      return { error: (err as Error).message };
    }
  };
  const files = [
    ...['capture-crlf.http', 'capture-lf.http', 'capture-chunked.http', 'capture-chunked-lf.http', 'capture-tampered.http'].map(fixture),
    ...at(
      'ok.http',
      'ok-lf.http',
      'editor-newline.http',
      'no-length.http',
      'no-length-lf.http',
      'crlf-body.http',
      'garbage.http',
      'empty.http',
      'truncated.http',
      'no-blank-line.http',
    ),
  ];
  it.each(files)('%s: the same head and body (or error) as from the file', (file) => {
    const bytes = readFileSync(file);
    const fromFile = outcome((sink) => parseCaptureFile(file, sink));
    const byByte = outcome((sink) => {
      const parser = new CaptureParser(file, sink);
      for (let i = 0; i < bytes.length; i++) parser.push(bytes.subarray(i, i + 1));
      return parser.end();
    });
    expect(byByte).toEqual(fromFile);
  });
});

describe('many captures in one run', () => {
  it('300 captures: every verdict, in order', async () => {
    const d = tempDir(
      Object.fromEntries(
        Array.from({ length: 300 }, (_, i) => [`${String(i).padStart(4, '0')}.http`, signed(BODY.replace('bk_9', `bk_${i}`))]),
      ),
    );
    try {
      const files = Array.from({ length: 300 }, (_, i) => d.path(`${String(i).padStart(4, '0')}.http`));
      const r = await verify({ request: files }, { output: 'tsv' });
      expect(r.code).toBe(0);
      expect(r.out.trimEnd().split('\n')).toHaveLength(300);
    } finally {
      d.cleanup();
    }
  });
});
