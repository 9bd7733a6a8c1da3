// The HMAC itself: public vectors, the streaming digest against node's createHmac however the body is
// split, and the rewritten-body digests behind the mismatch hints.
import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BodyDigest, VariantDigest } from '../../src/webhook/body-digest';
import { digestsEqual, parseSignature, signatureHeader } from '../../src/webhook/signature';

const hmac = (key: Buffer | string, data: Buffer | string) => createHmac('sha256', key).update(data).digest();

/** Feeds body to target in pieces of the given sizes, in turn. */
function split<T extends { update(c: Buffer): void }>(target: T, body: Buffer, sizes: number[]): T {
  for (let at = 0, i = 0; at < body.length; at += sizes[i++ % sizes.length]!)
    target.update(body.subarray(at, at + sizes[i % sizes.length]!));
  return target;
}
const streamed = (secret: Buffer, body: Buffer, sizes: number[]) => split(new BodyDigest(secret), body, sizes).finish();

describe('public vectors', () => {
  it("GitHub's documented example", () => {
    expect(signatureHeader("It's a Secret to Everybody", Buffer.from('Hello, World!'))).toBe(
      'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17',
    );
    const d = new BodyDigest(Buffer.from("It's a Secret to Everybody"));
    d.update(Buffer.from('Hello, World!'));
    expect(d.finish().digest.toString('hex')).toBe('757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17');
  });

  const rfc4231: [string, Buffer, Buffer, string][] = [
    ['1', Buffer.alloc(20, 0x0b), Buffer.from('Hi There'), 'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7'],
    [
      '2',
      Buffer.from('Jefe'),
      Buffer.from('what do ya want for nothing?'),
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    ],
    ['3', Buffer.alloc(20, 0xaa), Buffer.alloc(50, 0xdd), '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe'],
    [
      '4',
      Buffer.from(Array.from({ length: 25 }, (_, i) => i + 1)),
      Buffer.alloc(50, 0xcd),
      '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
    ],
    [
      '6',
      Buffer.alloc(131, 0xaa),
      Buffer.from('Test Using Larger Than Block-Size Key - Hash Key First'),
      '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
    ],
    [
      '7',
      Buffer.alloc(131, 0xaa),
      Buffer.from(
        'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
      ),
      '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
    ],
  ];
  it.each(rfc4231)('RFC 4231 test case %s, in one piece and byte by byte', (_n, key, data, expected) => {
    expect(streamed(key, data, [data.length]).digest.toString('hex')).toBe(expected);
    expect(streamed(key, data, [1]).digest.toString('hex')).toBe(expected);
  });

  it('RFC 4231 test case 5 (truncated to 128 bits)', () => {
    const d = streamed(Buffer.alloc(20, 0x0c), Buffer.from('Test With Truncation'), [7]);
    expect(d.digest.subarray(0, 16).toString('hex')).toBe('a3b6167473100ee06e0c796c2955552b');
  });
});

describe('streaming digest', () => {
  const secret = Buffer.from('whsec_stream');
  // Over 64 KiB, so the streaming (forked Hash) path runs, not the one-shot HMAC of small bodies.
  const big = randomBytes(200_003);

  it.each([[[65536]], [[1]], [[3, 1, 7]], [[100_000, 1, 1]], [[1, 200_002]]])('matches createHmac when split as %j', (sizes) => {
    const bigLF = Buffer.concat([big.subarray(0, 150_000), Buffer.from('\r\n')]);
    expect(streamed(secret, big, sizes).digest).toEqual(hmac(secret, big));
    const r = streamed(secret, bigLF, sizes);
    expect(r.digest).toEqual(hmac(secret, bigLF));
    expect(r.withoutLF).toEqual(hmac(secret, bigLF.subarray(0, -1)));
    expect(r.withoutCRLF).toEqual(hmac(secret, bigLF.subarray(0, -2)));
    expect(r.bytes).toBe(bigLF.length);
  });

  it('binary bodies: invalid UTF-8 and a BOM are hashed as bytes, never decoded', () => {
    const body = Buffer.from([0xef, 0xbb, 0xbf, 0xff, 0xfe, 0xc3, 0x28, 0x00, 0x0d, 0x80]);
    const r = streamed(secret, body, [2]);
    expect(r.digest).toEqual(hmac(secret, body));
    expect(r.startsWithBOM).toBe(true);
    expect(r.hasCR).toBe(true);
    expect(r.withoutLF).toBeUndefined();
  });

  it.each([[[1]], [[2]], [[3]], [[10]]])('a leading BOM is seen however it is split (%j), and only a whole one at the start', (sizes) => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]);
    expect(streamed(secret, bom, sizes).startsWithBOM).toBe(true);
    for (const body of [
      [0xef, 0xbb],
      [0xef, 0xbb, 0x00, 0xbf],
      [0x7b, 0xef, 0xbb, 0xbf],
      [0xbb, 0xbf],
    ]) {
      expect(streamed(secret, Buffer.from(body), sizes).startsWithBOM).toBe(false);
    }
  });

  it('an empty body', () => {
    const r = new BodyDigest(secret).finish();
    expect(r.digest).toEqual(hmac(secret, ''));
    expect(r.bytes).toBe(0);
  });
});

describe('rewritten bodies for the hints', () => {
  const secret = Buffer.from('s');
  const variants = (body: Buffer, sizes: number[]) => split(new VariantDigest(secret), body, sizes).finish();
  const body = Buffer.from('\ufeff{"a":1,\r\n"b":"x\ry"}\r\n\r\r\n\r', 'utf8');
  const lf = Buffer.from(body.toString('latin1').replace(/\r\n/g, '\n'), 'latin1');

  it.each([[[body.length]], [[1]], [[2]], [[5, 3]]])('CRLF → LF and without BOM, split as %j', (sizes) => {
    const v = variants(body, sizes);
    expect(v.crlfToLf.digest).toEqual(hmac(secret, lf));
    expect(v.withoutBOM.digest).toEqual(hmac(secret, body.subarray(3)));
  });
});

describe('signatures', () => {
  it('parses sha256=<hex> and bare hex in either case', () => {
    const hex = '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';
    for (const s of [`sha256=${hex}`, hex, hex.toUpperCase(), `sha256=${hex.toUpperCase()}`])
      expect(parseSignature(s)?.toString('hex')).toBe(hex);
  });
  it.each([
    '',
    'sha256=',
    'sha256=abc',
    `sha1=${'a'.repeat(64)}`,
    `SHA256=${'a'.repeat(64)}`,
    'g'.repeat(64),
    ` ${'a'.repeat(64)}`,
    'a'.repeat(65),
    `sha256=${'a'.repeat(63)}`,
  ])('rejects %j', (s) => expect(parseSignature(s)).toBeUndefined());
  it('compares digests of different lengths as unequal', () => {
    expect(digestsEqual(Buffer.alloc(32), Buffer.alloc(31))).toBe(false);
  });
});
