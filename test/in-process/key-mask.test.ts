// maskKeyIn: every form of the key (any case, any run of 12+ of its characters, its encoded forms)
// masked, the text around it kept; URL passwords masked. The door's own tests: test/in-process/output-door.test.ts.
import { describe, expect, it } from 'vitest';
import { maskKeyIn, maskUrlPasswords } from '../../src/base/key-mask';
import { rng } from '../helpers/json-gen';

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

  it('every run of 12 characters of a key, in any case, is masked, over 200 seeded keys', () => {
    // The quick test looks for aligned blocks of the key: each run must hold one, wherever it starts.
    const CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-+/=.~ëк';
    for (let seed = 1; seed <= 200; seed++) {
      const random = rng(seed);
      const key = Array.from({ length: 4 + Math.floor(random() * 40) }, () => CHARS[Math.floor(random() * CHARS.length)]).join('');
      const flip = (t: string) =>
        [...t].map((c) => (c < '\x80' && random() < 0.5 ? (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) : c)).join('');
      const runs = key.length <= 12 ? [key] : Array.from({ length: key.length - 11 }, (_, i) => key.slice(i, i + 12));
      for (const run of runs) {
        const text = `[${flip(run)}]`;
        expect(maskKeyIn(text, key), `seed ${seed}, key ${key}`).toBe('[****]');
      }
    }
  });

  it('a piece that occurs twice in the key masks the longest run', () => {
    const key = 'abcdefghijklabcdefghijklZZ';
    expect(maskKeyIn(`<abcdefghijklZZ>`, key)).toBe('<****>');
  });
});

describe('encoded forms of the key', () => {
  const key = 'sk/live+SECRET/KEY+12345';
  it.each([
    ['encodeURIComponent', encodeURIComponent(key)],
    ['lowercase hex', encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase())],
    ['URLSearchParams', new URLSearchParams({ k: key }).toString().slice(2)],
    ['JSON \\/', key.replace(/\//g, '\\/')],
    ['base64', Buffer.from(key).toString('base64')],
    ['base64url', Buffer.from(key).toString('base64url')],
    ['12 characters of the encoded form', encodeURIComponent(key).slice(3, 15)],
  ])('%s', (_name, form) => {
    expect(maskKeyIn(`cursor=${form};`, key)).not.toContain(form);
  });

  // Issue 33, item 5: the key inside a longer base64 text starts at byte 0, 1 or 2 of a 3-byte group.
  it.each([
    ['Basic base64(user:KEY)', (k: string) => Buffer.from(`user:${k}`).toString('base64')],
    ['base64("Bearer " + KEY)', (k: string) => Buffer.from(`Bearer ${k}`).toString('base64')],
    ['base64(KEY + "\\n")', (k: string) => Buffer.from(`${k}\n`).toString('base64')],
    ['base64url("ab" + KEY + "z")', (k: string) => Buffer.from(`ab${k}z`).toString('base64url')],
    ['base64url("a" + KEY)', (k: string) => Buffer.from(`a${k}`).toString('base64url')],
    ['hex, lower case', (k: string) => Buffer.from(k).toString('hex')],
    ['hex, upper case', (k: string) => Buffer.from(`x${k}`).toString('hex').toUpperCase()],
  ])('%s is masked', (_name, encode) => {
    for (const k of [key, 'sk_test_0123456789abcdefABCDEF', 'sk_tëst_ключ_0123456789']) {
      const form = encode(k);
      const masked = maskKeyIn(`Authorization: ${form};`, k);
      expect(masked, form).toContain('****');
      // What is left of the encoded text decodes to no run of 12 of the key's characters.
      const left = masked.replace(/^Authorization: |;$/g, '');
      for (const part of left.split('****')) expect(form.includes(part) && part.length < 20, `${form} → ${masked}`).toBe(true);
    }
  });

  it.each([['0123456789"abcdefghi'], ['0123456789\\abcdef/ghi'], ['"sk"\\live"0123456789']])(
    'a key with " or \\ is masked as JSON writes it (escaped) and as csv does (quotes doubled): %j',
    (key) => {
      const json = JSON.stringify(key).slice(1, -1);
      for (const form of [json, json.replace(/\//g, '\\/'), key.replace(/"/g, '""')]) {
        const masked = maskKeyIn(`[${form}]`, key);
        expect(masked, form).toContain('****');
        // What is left shows no run of 12 of the form's characters.
        for (const part of masked.slice(1, -1).split(/\*{4,}/)) expect(part.length, masked).toBeLessThan(12);
      }
    },
  );

  it('a key whose pieces between quotes are under 12 characters is masked whole, as text and in each form', () => {
    const key = 'aaaaaaaaaaa"bbbbbbbbbbb"ccccccccccc"ddddddddddd';
    const json = JSON.stringify(key).slice(1, -1);
    for (const form of [key, json, key.replace(/"/g, '""'), json.replace(/"/g, '""')])
      expect(maskKeyIn(`<${form}>`, key), form).toBe('<****>');
  });

  it.each([["sk_live(it's)!~ a*b"], ['sk_tëst_ключ_🔑_0123456789'], ['sk_\ud800_lone_surrogate_0123']])(
    'the form-encoded form of %j is masked as URLSearchParams writes it',
    (key) => {
      const form = new URLSearchParams({ k: key }).toString().slice(2);
      expect(maskKeyIn(`body=${form};`, key)).toMatch(/^body=\*{4,};$/);
    },
  );

  it('URL passwords are masked, the user and host kept', () => {
    expect(maskUrlPasswords('to http://ada:s3cret@127.0.0.1:8787/hooks ok')).toBe('to http://ada:****@127.0.0.1:8787/hooks ok');
    expect(maskUrlPasswords('"https://u:p%40ss@h/x"')).toBe('"https://u:****@h/x"');
    expect(maskUrlPasswords('http://127.0.0.1:8787/a@b')).toBe('http://127.0.0.1:8787/a@b');
  });
});
