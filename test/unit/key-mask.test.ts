// maskKeyIn and maskingIO: every form of the key (any case, any run of 12+ of its characters) masked,
// the text around it kept, binary output passed through untouched.
import { describe, expect, it } from 'vitest';
import { maskKeyIn, maskingIO } from '../../src/key-mask';
import { testIO } from '../../src/io';

const KEY = 'sk_live_SECRETKEY1234567890';

describe('maskKeyIn', () => {
  it.each([
    [`a ${KEY} b`, 'a **** b'],
    [`a ${KEY.toUpperCase()} b`, 'a **** b'],
    [`x${KEY.slice(0, -1)}y`, 'x****y'],
    [`sk_live_SECRETKEY12345678`, '****'],
    [`[${KEY.slice(7, 19)}]`, '[****]'],
    [`${KEY}${KEY}`, '********'],
  ])('%s → %s', (text, masked) => {
    expect(maskKeyIn(text, KEY)).toBe(masked);
  });

  it('leaves 11 characters of the key, and text without it, alone', () => {
    expect(maskKeyIn(`id ${KEY.slice(0, 11)}.`, KEY)).toBe(`id ${KEY.slice(0, 11)}.`);
    expect(maskKeyIn('nothing here', KEY)).toBe('nothing here');
  });

  it('a key of 12 characters or fewer is masked whole, in any case', () => {
    expect(maskKeyIn('k=ABCDEFGH1 k=abcdefgh', 'abcdefgh1')).toBe('k=**** k=abcdefgh');
  });

  it('a piece that occurs twice in the key masks the longest run', () => {
    const key = 'abcdefghijklabcdefghijklZZ';
    expect(maskKeyIn(`<abcdefghijklZZ>`, key)).toBe('<****>');
  });
});

describe('maskingIO', () => {
  it('masks only after maskSecret, on stdout and stderr, strings and bytes alike', () => {
    const raw = testIO();
    const io = maskingIO(raw);
    io.stdout.write(`before ${KEY}\n`);
    io.maskSecret!(KEY);
    io.stdout.write(`after ${KEY.toLowerCase()}\n`);
    io.stderr.write(Buffer.from(`err ${KEY}\n`));
    expect(raw.out()).toBe(`before ${KEY}\nafter ****\n`);
    expect(raw.err()).toBe('err ****\n');
  });

  it('bytes that are not text pass through unchanged', () => {
    const raw = testIO();
    const io = maskingIO(raw);
    io.maskSecret!(KEY);
    const bytes = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28]);
    io.stdout.write(bytes);
    expect(raw.outBytes().equals(bytes)).toBe(true);
  });
});
