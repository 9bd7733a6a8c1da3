// `verify --request` on HAR files (HTTP Archive 1.2, as devtools, mitmproxy, Charles and Insomnia
// export them): every signed POST entry is a delivery labelled file.har#N; base64 bodies are decoded;
// a file that is not HAR, or an entry whose body cannot be had, is exit 2 naming it.
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { runVerify } from '../../src/commands/webhook/verify/verify';
import { harDeliveries } from '../../src/webhook/har';
import { CAPTURE_LIMIT } from '../../src/webhook/capture';
import { runMain } from '../helpers/in-process';
import { FIXTURE_SECRET, fixture, makeCtx, tempDir, type KitOptions } from '../helpers/webhook-kit';

const HAR = fixture('devtools.har');
const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function verify(request: string[], kit: KitOptions = {}) {
  const ctx = makeCtx({ output: 'json', env: { BOOKING_WEBHOOK_SECRET: FIXTURE_SECRET }, ...kit });
  const code = await runVerify({ request }, ctx);
  return { code, out: ctx.io.out(), err: ctx.io.err() };
}

/** A HAR log holding these request objects (the parts of an entry the check reads). */
const harOf = (...requests: object[]) =>
  JSON.stringify({ log: { version: '1.2', creator: { name: 't', version: '1' }, entries: requests.map((request) => ({ request })) } });
const signedPost = (postData: object | undefined, extra: object = {}) => ({
  method: 'POST',
  url: 'http://127.0.0.1/h',
  headers: [
    { name: 'x-service-event', value: 'booking.created' },
    { name: 'x-service-signature', value: `sha256=${'0'.repeat(64)}` },
  ],
  ...(postData && { postData }),
  ...extra,
});

describe('a HAR 1.2 export', () => {
  it('checks every signed POST entry by its index: text and base64 bodies verify, the tampered #3 does not', async () => {
    const r = await verify([HAR]);
    expect(r.code).toBe(1);
    expect(JSON.parse(r.out)).toMatchObject([
      { file: `${HAR}#1`, authentic: true, event: 'booking.created', bytes: 244, duplicateOf: null },
      { file: `${HAR}#2`, authentic: true, event: 'booking.cancelled', bytes: 184 },
      { file: `${HAR}#3`, authentic: false, reason: 'the signature does not match the body: a different secret, or the body was changed' },
    ]);
  });

  it('the base64 body is decoded to the bytes that were signed (non-ASCII text included)', async () => {
    const [, cancelled] = await harDeliveries('x.har', readFileSync(HAR));
    expect('body' in cancelled! && cancelled.body.toString()).toContain('Café ☕ call');
  });

  it('a capture and a HAR entry with the same body: the second is a duplicate, whatever the format', async () => {
    const r = await verify([fixture('capture-crlf.http'), HAR]);
    expect(JSON.parse(r.out)[1]).toMatchObject({ file: `${HAR}#1`, duplicateOf: fixture('capture-crlf.http') });
  });

  it('recognised by its content, not its name: piped on stdin', async () => {
    const r = await runMain(['webhook', 'verify', '--request', '-'], {
      stdin: readFileSync(HAR),
      env: { BOOKING_WEBHOOK_SECRET: FIXTURE_SECRET },
    });
    expect(r.code).toBe(1);
    expect(r.stdout.split('\n')[2]).toMatch(/^not-authentic\tbooking\.created\t243\t.*\t-#3$/);
  });

  it('_encoding (the HAR 1.2 way for a custom field) is read as encoding', async () => {
    const [d] = await harDeliveries(
      'x.har',
      Buffer.from(harOf(signedPost({ mimeType: 'application/json', text: 'eyJhIjoxfQ==', _encoding: 'base64' }))),
    );
    expect('body' in d! && d.body.toString()).toBe('{"a":1}');
  });
});

describe('what is not HAR, or not a delivery', () => {
  it.each([
    ['not JSON at all', '{ nope', /is not a HAR file: it is not valid JSON/],
    ['JSON without a log', '{"entries": []}', /is not a HAR file: it has no "log" object/],
    ['a log without entries', '{"log": {"version": "1.2"}}', /is not a HAR file: its log has no "entries" list/],
    [
      'no signed POST entry',
      harOf({ method: 'GET', url: 'http://x/', headers: [] }),
      /has no POST entry with an X-Service-Signature header \(of 1 entries\)/,
    ],
  ])('%s: exit 2 naming the file', async (_what, text, message) => {
    const path = tmp.path(`bad-${_what.replace(/\W+/g, '-')}.har`);
    const { writeFileSync } = await import('node:fs');
    writeFileSync(path, text);
    const r = await verify([path, fixture('capture-crlf.http')], { output: 'tsv' });
    expect(r.code).toBe(2);
    expect(r.err.split('\n')[0]).toMatch(new RegExp(`^error: ${path.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} `));
    expect(r.err).toMatch(message);
    expect(r.out).toMatch(/^authentic\t/); // the others are still checked
  });

  it.each([
    [
      'params only',
      signedPost({ mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'a', value: '1' }] }),
      /x\.har#0: its postData has no "text" \(only params\)/,
    ],
    ['a body size but no postData', signedPost(undefined, { bodySize: 12 }), /x\.har#0: the HAR does not hold its body \(bodySize 12/],
    [
      'an encoding it cannot read',
      signedPost({ mimeType: 'a/b', text: 'x', encoding: 'gzip' }),
      /x\.har#0: its postData encoding "gzip" is not one booking reads/,
    ],
    [
      'base64 that is not',
      signedPost({ mimeType: 'a/b', text: 'not base64!', encoding: 'base64' }),
      /x\.har#0: its postData text is not base64/,
    ],
  ])('an entry with %s is an error naming the entry', async (_what, request, message) => {
    const [d] = await harDeliveries('x.har', Buffer.from(harOf(request)));
    expect(d).toMatchObject({ exitCode: 2, message: expect.stringMatching(message) });
  });

  it('no postData and no body size: an empty body, checked', async () => {
    const [d] = await harDeliveries('x.har', Buffer.from(harOf(signedPost(undefined, { bodySize: 0 }))));
    expect('body' in d! && d.body.length).toBe(0);
  });

  it('an entry over the capture limit is refused before its body is made', async () => {
    const text = 'a'.repeat(CAPTURE_LIMIT + 1);
    const [d] = await harDeliveries('big.har', Buffer.from(harOf(signedPost({ mimeType: 'text/plain', text }))));
    expect(d).toMatchObject({ exitCode: 2, message: 'big.har#0: its body is larger than a capture may be (64 MiB); not checked.' });
  });
});
