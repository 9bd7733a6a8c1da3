// A HAR file is read in pieces (src/webhook/har-scan.ts finds log.entries, src/webhook/har.ts parses
// them a batch at a time), not with one JSON.parse: what that parse would make of the file is still
// what counts (the last of a key written twice, escaped keys, a BOM), every entry is checked to be
// JSON before any delivery is handed out, and an error names the entry it is in.
import { describe, expect, it } from 'vitest';
import { harDeliveries } from '../../src/webhook/har';

const signed = (text: string) => ({
  request: { method: 'POST', headers: [{ name: 'X-Service-Signature', value: `sha256=${'0'.repeat(64)}` }], postData: { text } },
});
const get = { request: { method: 'GET', url: 'http://127.0.0.1/', headers: [] } };
const s = (v: unknown) => JSON.stringify(v);

/** Each delivery as `label=body`, an entry's error as its message; or the file's error message. */
async function read(text: string): Promise<string[] | string> {
  try {
    return [...(await harDeliveries('x.har', Buffer.from(text)))].map((d) => ('body' in d ? `${d.label}=${d.body}` : d.message));
  } catch (err) {
    return (err as Error).message;
  }
}

describe('what JSON.parse would read', () => {
  it.each([
    ['the last "log" of two', `{"log":{"entries":[${s(signed('a'))}]},"log":{"entries":[${s(get)},${s(signed('b'))}]}}`, ['x.har#1=b']],
    ['escaped keys', `{"\\u006cog":{"entr\\u0069es":[${s(signed('a'))}]}}`, ['x.har#0=a']],
    ['a BOM', `\uFEFF{"log":{"entries":[${s(signed('a'))}]}}`, ['x.har#0=a']],
    ['"entries" inside a string before them', `{"log":{"a":"\\"entries\\":[","entries":[${s(signed('a'))}]}}`, ['x.har#0=a']],
    ['a log in an array before the log', `{"a":[{"log":{"entries":[1]}}],"log":{"entries":[${s(signed('z'))}]}}`, ['x.har#0=z']],
    ['whitespace in every gap', ` {\n "log" : {\t"entries" :\r\n [ ${s(get)} ,\n ${s(signed('a'))} ] } }\n`, ['x.har#1=a']],
  ])('%s', async (_what, text, deliveries) => {
    expect(await read(text)).toEqual(deliveries);
  });

  it.each([
    ['"entries" written again, not a list', `{"log":{"entries":[${s(signed('a'))}],"entries":5}}`, 'its log has no "entries" list'],
    ['"log" written again, not an object', `{"log":{"entries":[${s(signed('a'))}]},"log":1}`, 'it has no "log" object'],
    ['a file that is an array', `[{"log":{"entries":[${s(signed('a'))}]}}]`, 'it has no "log" object'],
    ['entries deeper in the log', `{"log":{"x":{"entries":[${s(signed('a'))}]}}}`, 'its log has no "entries" list'],
  ])('%s: not HAR', async (_what, text, why) => {
    expect(await read(text)).toBe(`x.har is not a HAR file: ${why}.`);
  });

  it('"[ ]" holds no entry', async () => {
    expect(await read('{"log":{"entries":[ \n ]}}')).toMatch(/has no POST entry .* \(of 0 entries\)/);
  });
});

describe('not JSON anywhere: reported before any delivery', () => {
  it.each([
    ['an entry', `{"log":{"entries":[{}, {"a" 1}]}}`, /^log\.entries\[1\], from byte 22: .+/],
    ['an empty entry', `{"log":{"entries":[{},,{}]}}`, /^log\.entries\[1\], from byte 22: .+/],
    ['a comma after the last entry', `{"log":{"entries":[{},]}}`, /^log\.entries\[1\], from byte 22: .+/],
    [
      'what is around the entries',
      `{"log":{"entries":[${s(signed('a'))}]}, }`,
      /^around log\.entries, a position here leaving them out: .+/,
    ],
    ['a second value after the file', `{"log":{"entries":[${s(signed('a'))}]}} {}`, /^around log\.entries, .+/],
    [
      'a file cut short',
      `{"log":{"entries":[${s(signed('a'))},{"request":{"method":"PO`,
      /^it ends inside a string, object or array: is it cut short\?$/,
    ],
    ['a file without entries', '{"log": nope}', /^(?!around).+/],
  ])('in %s', async (_what, text, why) => {
    const message = await read(text);
    const inside = /^x\.har is not a HAR file: it is not valid JSON \((.*)\)\.$/.exec(message as string)?.[1];
    expect(inside, message as string).toMatch(why);
  });

  it('in the last of thousands of entries, past the first batch: no delivery is made first', async () => {
    const entries = [...Array(3000).fill(s(signed('a'))), '{"request":}'];
    expect(await read(`{"log":{"entries":[${entries.join(',')}]}}`)).toMatch(/not valid JSON \(log\.entries\[3000\], from byte \d+: /);
  });
});

describe('many entries, parsed a batch at a time', () => {
  it('each delivery is labelled with its index in log.entries, whichever batch it is in', async () => {
    const entries = Array.from({ length: 5000 }, (_, i) => (i % 1000 === 999 ? s(signed(`b${i}`)) : s(get)));
    expect(await read(`{"log":{"entries":[${entries.join(',')}]}}`)).toEqual([
      'x.har#999=b999',
      'x.har#1999=b1999',
      'x.har#2999=b2999',
      'x.har#3999=b3999',
      'x.har#4999=b4999',
    ]);
  });

  it('no signed entry: the count is of every entry', async () => {
    expect(await read(`{"log":{"entries":[${Array(5000).fill(s(get)).join(',')}]}}`)).toMatch(/\(of 5000 entries\)/);
  });
});
