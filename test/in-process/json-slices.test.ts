// A value holding a long string is written in slices (src/output/json-slices.ts): the bytes must be
// jsonText's (jsonLine's, the json list writer's indented elements), over seeded values with long
// strings at every depth (unicode, surrogate pairs cut at a slice's edge, control and bidi characters,
// marks that look like numbers), and a key cut by a slice's edge is still masked.
import { describe, expect, it } from 'vitest';
import { jsonText, parseJson } from '../../src/output/json';
import { holdsLongString, writeJsonInSlices } from '../../src/output/json-slices';
import { jsonGen, rng } from '../helpers/json-gen';
import { outputContext } from '../helpers/output-kit';

const SIZES = { long: 10, slice: 7 };
const LONGS = [
  'x'.repeat(25),
  'é😀'.repeat(9),
  `a\u0000b\n\u202e${'z'.repeat(10)}\u007f"\\`,
  '\u0000123456789012',
  '😀'.repeat(12),
  `${'y'.repeat(6)}\ud800${'y'.repeat(6)}`,
];

async function sliced(value: unknown, indent: number, pad: string, key?: string): Promise<string> {
  const ctx = outputContext({ tty: false });
  if (key) ctx.io.maskSecret(key);
  await writeJsonInSlices(ctx, value, indent, pad, '<', '>\n', SIZES);
  return ctx.io.out();
}

describe('a value written in slices', () => {
  it('is the bytes jsonText writes, over 300 seeded values with long strings in them', async () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = rng(seed);
      const value = parseJson(jsonGen(random).value(4));
      // Long strings put in at random places: the value itself, or array elements and fields at any depth.
      const put = (v: unknown): unknown => {
        const long = LONGS[Math.floor(random() * LONGS.length)]!;
        if (Array.isArray(v)) return random() < 0.4 ? [...v.map(put), long] : v.map(put);
        if (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype)
          return Object.fromEntries([...Object.entries(v).map(([k, x]) => [k, put(x)]), ...(random() < 0.4 ? [[`l${seed}`, long]] : [])]);
        return random() < 0.1 ? long : v;
      };
      const withLong = put(value);
      for (const [indent, pad] of [
        [0, ''],
        [2, ''],
        [2, '  '],
      ] as const) {
        const want = `<${jsonText(withLong, indent).replace(/\n/g, `\n${pad}`)}>\n`;
        expect(await sliced(withLong, indent, pad), `seed ${seed} indent ${indent}`).toBe(want);
      }
    }
  });

  it('says which values hold a long string', () => {
    expect(holdsLongString({ a: [1, { b: 'x'.repeat(20) }] }, 20)).toBe(true);
    expect(holdsLongString({ a: [1, { b: 'x'.repeat(19) }] }, 20)).toBe(false);
    expect(holdsLongString('x'.repeat(20), 20)).toBe(true);
  });

  it('masks a key that a slice edge cuts in two', async () => {
    const key = 'sk_live_SLICEDKEY1234567890';
    const out = await sliced({ note: `${'x'.repeat(5)}${key}${'y'.repeat(5)}` }, 2, '', key);
    expect(out).toBe('<{\n  "note": "xxxxx****yyyyy"\n}>\n');
  });
});
