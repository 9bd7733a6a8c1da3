// A listing's items copied as the server sent them (src/output/json-raw.ts) print exactly what stringifying
// them would: seeded random pages (numbers at every edge, escapes, raw UTF-8, whitespace) and the
// cases where the bytes differ from what booking writes (a duplicate key, a key JSON.parse moves
// first, an escape, whitespace), each compared with lossless-json as the reference.
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { makeResponse } from '../../src/http/response';
import { discover } from '../../src/http/discovery';
import { itemsFingerprint, spanFingerprint } from '../../src/http/page-fingerprint';
import { scanJson } from '../../src/base/json-scan';
import { stringifyJson } from '../../src/output/json';
import { jsonGen, rng } from '../helpers/json-gen';

const reference = (text: string) => losslessParse(text, undefined, { onDuplicateKey: ({ newValue }) => newValue });
const canonical = (text: string) => losslessStringify(reference(text))!;

/** Each item's text from the raw path where it is taken, and how many were taken. */
function viaRaw(body: string): { lines: string[]; copied: number; items: unknown[]; response: ReturnType<typeof makeResponse> } {
  const response = makeResponse('GET', new URL('http://127.0.0.1/x'), 200, {}, Buffer.from(body));
  const items = discover(response.json()).items!;
  const raw = response.rawItems!(items);
  let copied = 0;
  const lines = items.map((item, i) => {
    const text = raw?.text(i);
    if (text === undefined) return stringifyJson(item);
    copied++;
    return text;
  });
  return { lines, copied, items, response };
}

describe('raw item texts', () => {
  it('print what stringifying the items prints, over 300 seeded pages', () => {
    let copied = 0;
    let total = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed);
      const gen = jsonGen(random);
      // Half the items as a compact server writes them (no whitespace, only the escapes needed), the
      // rest as generated: escapes, whitespace, duplicate keys, raw UTF-8.
      const items = Array.from({ length: 1 + Math.floor(random() * 6) }, () => {
        const text = gen.value(4);
        return random() < 0.5 ? canonical(text) : text;
      });
      const sep = random() < 0.7 ? ',' : ', ';
      const body = random() < 0.3 ? `[${items.join(sep)}]` : `{"meta":{"n":1},"data":[${items.join(sep)}],"next":null}`;
      const got = viaRaw(body);
      expect(got.lines, `seed ${seed}: ${body}`).toEqual(items.map(canonical));
      // A page's lines as one buffer (the ndjson writer's fast path): given only when every item is
      // copied, and then byte for byte those lines; for the first n items as for all (--limit).
      const raw = got.response.rawItems!(got.items);
      for (const n of [got.items.length, Math.max(1, got.items.length - 1)]) {
        const bytes = raw?.lines(n);
        const all = got.items.slice(0, n).every((_, i) => raw?.text(i) !== undefined);
        expect(bytes !== undefined, `seed ${seed}, ${n} items: ${body}`).toBe(all && !body.includes('\x7f'));
        if (bytes)
          expect(bytes.toString('latin1')).toBe(
            got.lines
              .slice(0, n)
              .map((l) => `${l}\n`)
              .join(''),
          );
      }
      copied += got.copied;
      total += items.length;
    }
    // The test means something only if the raw path is taken often.
    expect(copied).toBeGreaterThan(total / 5);
  });

  it('are the items JSON.parse keeps, over 400 seeded envelopes naming the field twice, escaped, or non-ASCII', () => {
    // The fast path's proof (issue 33): whatever the envelope, the lines printed are those of the array
    // JSON.parse (the reference: lossless-json, last duplicate wins) finds at the field's decoded name.
    const NAMES = ['data', 'dätä', 'items', '数据'];
    /** The name as a server may write it: as is, one character escaped, or all of them. */
    const spell = (name: string, random: () => number) => {
      const pick = random();
      if (pick < 0.5) return name;
      const esc = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
      if (pick < 0.8) return [...name].map((c, i) => (i === 1 ? esc(c) : c)).join('');
      return [...name].map(esc).join('');
    };
    let copied = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const random = rng(seed);
      const gen = jsonGen(random);
      const name = NAMES[seed % NAMES.length]!;
      const array = () => {
        const n = 1 + Math.floor(random() * 3);
        return `[${Array.from({ length: n }, () => (random() < 0.6 ? canonical(gen.value(3)) : gen.value(3))).join(',')}]`;
      };
      // The field written one to three times (arrays of the same length or not), among other fields.
      const fields = Array.from({ length: 1 + Math.floor(random() * 3) }, () => `"${spell(name, random)}":${array()}`);
      if (random() < 0.5) fields.splice(Math.floor(random() * fields.length), 0, `"meta":{"n":${gen.number()}}`);
      const body = `{${fields.join(',')}}`;
      const response = makeResponse('GET', new URL('http://127.0.0.1/x'), 200, {}, Buffer.from(body));
      const items = discover(response.json(), undefined, { itemsPath: name }).items!;
      const want = (reference(body) as Record<string, unknown[]>)[name]!;
      expect(items.length, `seed ${seed}: ${body}`).toBe(want.length);
      const raw = response.rawItems!(items);
      const lines = items.map((item, i) => raw?.text(i) ?? stringifyJson(item));
      expect(lines, `seed ${seed}: ${body}`).toEqual(want.map((w) => losslessStringify(w)));
      const bytes = raw?.lines(items.length);
      if (bytes) expect(bytes.toString('utf8'), `seed ${seed}: ${body}`).toBe(lines.map((l) => `${l}\n`).join(''));
      if (raw?.text(0) !== undefined) copied++;
    }
    // The fast path is taken (a field written once, plainly or escaped), or the test proves nothing.
    expect(copied).toBeGreaterThan(40);
  });

  it('are copied exactly when their bytes are what booking writes, over 300 seeded pages of compact objects sharing keys', () => {
    // Keys from a small pool, so that an object names one twice (at any depth) and sibling and nested
    // objects share names (not a repeat); some start with a digit, some strings are not ASCII.
    const KEYS = ['a', 'b', 'c', 'ab', 'a', 'b', 'c', 'ab', '9x', '0'];
    // Strings holding what would end a key, an object or an element outside a string; rarely an escape
    // or non-ASCII.
    const STRINGS = ['"x"', '""', '"a b"', '"a:b,c}]"', '"x"', '""', '"a b"', '"a:b,c}]"', '"{\\"a\\":1}"', '"é"'];
    let copied = 0;
    let total = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed);
      const gen = jsonGen(random);
      const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
      const value = (depth: number): string => {
        const r = random();
        if (depth <= 0 || r < 0.4) return random() < 0.5 ? gen.number() : pick(STRINGS);
        if (r < 0.55) return `[${Array.from({ length: Math.floor(random() * 3) }, () => value(depth - 1)).join(',')}]`;
        // Keys drawn until one repeats (kept, sometimes) or the object has four.
        const names: string[] = [];
        for (let key = pick(KEYS); names.length < 4 && (!names.includes(key) || random() < 0.2); key = pick(KEYS)) names.push(key);
        return `{${names.map((k) => `"${k}":${value(depth - 1)}`).join(',')}}`;
      };
      const items = Array.from({ length: 1 + Math.floor(random() * 5) }, () => value(4));
      const body = `{"data":[${items.join(',')}],"meta":{"a":1,"a":2}}`;
      const got = viaRaw(body);
      expect(got.lines, `seed ${seed}: ${body}`).toEqual(items.map(canonical));
      // Copied when its bytes are what stringifying prints, ASCII, without a backslash (an escape is
      // never copied) or a key that starts with a digit (JSON.parse moves some of those first: none is).
      const copies = (t: string) => canonical(t) === t && !/[^\x20-\x7e]/.test(t) && !t.includes('\\') && !/"\d[^"]*":/.test(t);
      const want = items.filter(copies).length;
      expect(got.copied, `seed ${seed}: ${body}`).toBe(want);
      copied += got.copied;
      total += items.length;
    }
    expect(copied).toBeGreaterThan(total / 5);
    expect(copied).toBeLessThan(total);
  });

  it('are not used where the bytes differ from what booking writes', () => {
    const level = Array.from({ length: 249 }, (_, i) => `"k${i}":${i}`).join(',');
    const nested = `${`{${level},"n":`.repeat(17)}1${'}'.repeat(17)}`;
    const cases: [item: string, printed: string][] = [
      ['{"a":1,"a":2}', '{"a":2}'],
      ['{"b":1,"2":2,"1":3}', '{"1":3,"2":2,"b":1}'],
      ['{"u":"\\u00e9"}', '{"u":"é"}'],
      ['{"p":"a\\/b"}', '{"p":"a/b"}'],
      ['{"x": 1}', '{"x":1}'],
      ['{"o":{"k":[1,{"k":2,"k":3}]}}', '{"o":{"k":[1,{"k":3}]}}'],
      ['{"a":{"b":1},"c":{"d":{"e":1}},"c":2}', '{"a":{"b":1},"c":2}'],
      ['{"o":{"x":1,"9":2}}', '{"o":{"9":2,"x":1}}'],
      ['{"u":"é"}', '{"u":"é"}'],
      [
        `{${Array.from({ length: 300 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
        `{${Array.from({ length: 300 }, (_, i) => `"k${i}":${i}`).join(',')}}`,
      ],
      // More keys open at once than the scan keeps (17 nested objects of 250): written the usual way.
      [nested, nested],
    ];
    for (const [item, printed] of cases) {
      const got = viaRaw(`{"data":[${item},{"id":12345678901234567890,"f":1.50,"z":-0}]}`);
      expect(got.lines, item).toEqual([printed, '{"id":12345678901234567890,"f":1.50,"z":-0}']);
      expect(got.copied, item).toBe(1);
    }
  });

  it('give no page buffer when an item holds a DEL (the ndjson writer escapes it), or the count is out of range', () => {
    const got = viaRaw('{"data":[{"a":"x\x7fy"},{"b":1}]}');
    const raw = got.response.rawItems!(got.items)!;
    expect(got.copied).toBe(2);
    expect(raw.lines(2)).toBeUndefined();
    const clean = viaRaw('{"data":[{"a":1},{"b":2}]}');
    const lines = clean.response.rawItems!(clean.items)!;
    expect(lines.lines(1)?.toString()).toBe('{"a":1}\n');
    expect(lines.lines(0)).toBeUndefined();
    expect(lines.lines(3)).toBeUndefined();
  });

  it('are taken for compact ASCII items, numbers as sent', () => {
    const items = [
      '{"id":12345678901234567890,"n":1e400,"z":-0,"s":"a b"}',
      '{"k":[1,2,{"x":null}],"t":true}',
      '"s"',
      '7',
      // The same name in sibling and nested objects, and in the next item, is no repeat.
      '{"a":{"a":{"a":1},"b":[{"a":1},{"a":2}]},"b":{"a":3}}',
      '{"a":1,"b":2}',
    ];
    const got = viaRaw(`{"data":[${items.join(',')}],"meta":{"next_cursor":"c2"}}`);
    expect(got.lines).toEqual(items);
    expect(got.copied).toBe(items.length);
  });

  it('are not trusted when the field holding them is written twice, or is not at the top', () => {
    expect(viaRaw('{"data":[{"a":1}],"data":[{"a":2}]}')).toMatchObject({ lines: ['{"a":2}'], copied: 0 });
    expect(viaRaw('{"data":{"items":[{"a":1}]}}')).toMatchObject({ lines: ['{"a":1}'], copied: 0 });
    expect(viaRaw('{"data":[]}')).toMatchObject({ lines: [], copied: 0 });
  });

  it('give the page the same fingerprint as its items do', async () => {
    for (const sep of [',', ',\n  ']) {
      const body = Buffer.from(`{"data":[ {"uid":"a","n":1},{"uid":"b","n":2}${sep}{"uid":"c"} ],"meta":{}}`);
      const got = viaRaw(body.toString());
      const raw = got.response.rawItems!(got.items)!;
      expect(spanFingerprint(body, got.items.length, raw.span)).toBe(await itemsFingerprint(body, got.items));
    }
  });

  it('are found by the scan only at the top: the body, or one of its fields', () => {
    const scan = scanJson(Buffer.from('{"a":[1,[2,3]],"b":{"c":[4]},"d":[]}'));
    expect(scan.arrays.map((a) => [a.key, a.elements.length / 3])).toEqual([
      ['a', 2],
      ['d', 0],
    ]);
    // A body over 8 MiB is never copied from: no spans are kept for it.
    const big = Buffer.from(`[${'"x",'.repeat(2.2 * 1024 * 1024)}1]`);
    expect(big.length).toBeGreaterThan(8 * 1024 * 1024);
    expect(scanJson(big).arrays).toEqual([]);
    expect(scanJson(big.subarray(0, 1024)).arrays).toHaveLength(1);
  });
});
