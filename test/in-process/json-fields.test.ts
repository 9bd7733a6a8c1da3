// A page whose numbers to keep are all fields of its items (64-bit ids) is parsed by JSON.parse and
// those fields set afterwards (src/output/json.ts parseScanned), not through a marked copy of the body
// and a walk (parseMarked). The value must be the same in every case: seeded listings, most of them
// compact (the quick way), others with what sends them the slow way (whitespace, escapes, a field
// written twice, the listing's name written twice, `__proto__`, array-index names, U+0000-led
// strings), and each with one byte changed: the same value, or an error where the other has one.
import { describe, expect, it } from 'vitest';
import { scanJson } from '../../src/base/json-scan';
import { jsonText, parseMarked, parseScanned } from '../../src/output/json';
import { jsonGen, rng } from '../helpers/json-gen';
import { outcome } from '../helpers/json-outcome';

const BIG = ['4611686018427387904', '12345678901234567890', '-9007199254740993', '1.50', '1e400', '-0', '0.10000000000000000001'];
const NAMES = ['"id"', '"amount"', '"dätä"', '"日本"', '"__proto__"', '"0"', '"12"', '"i\\u0064"', '"\\u0000k"', '""'];
const LISTS = ['"data"', '"items"', '"d\\u0061ta"', '"dätä"', '"__proto__"'];

function listing(random: () => number): string {
  const gen = jsonGen(random);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;
  const odd = random() < 0.3; // something that sends the page the slow way, somewhere
  const space = () => (odd && random() < 0.1 ? pick([' ', '\n  ']) : '');
  const name = () => (odd && random() < 0.3 ? pick(NAMES) : random() < 0.5 ? pick(['"id"', '"amount"', '"n"']) : `"k${int(30)}"`);
  const value = (): string => {
    const r = random();
    if (r < 0.4) return pick(BIG);
    if (!odd) return pick(['"s"', '"Zoë"', 'true', 'null', '42', '-1.5', '{"name":"A","email":"a@example.com"}', '[1,"x"]']);
    if (r < 0.5) return `{"v":${pick(BIG)},"w":${gen.value(1)}}`;
    if (r < 0.55) return `[${pick(BIG)}]`;
    return gen.value(odd ? 2 : 1);
  };
  const item = () => {
    if (random() < 0.05) return gen.value(1);
    const members = Array.from({ length: 1 + int(6) }, () => `${space()}${name()}:${space()}${value()}`);
    return `{${members.join(',')}}`;
  };
  const items = `[${Array.from({ length: int(8) }, item).join(`,${space()}`)}]`;
  if (random() < 0.25) return items;
  const fields = [`${pick(odd ? LISTS : ['"data"', '"items"'])}:${items}`, `"meta":{"next":${pick(BIG)}}`, `"total":${pick(BIG)}`];
  if (random() < 0.3) fields.push(`${pick(LISTS)}:${random() < 0.5 ? items : pick(BIG)}`);
  if (random() < 0.3) fields.push(`"more":[${item()}]`);
  const order = fields.sort(() => random() - 0.5);
  // Numbers outside the items only in some pages: those pages go the slow way anyway.
  return `{${(random() < 0.5 ? order.filter((f) => !f.startsWith('"meta"') && !f.startsWith('"total"')) : order).join(',')}}`;
}

describe("a page whose numbers are its items' fields", () => {
  it('parses to what the marked parse gives, value or error, over 1,500 seeded pages and a one-byte change of each', () => {
    let quick = 0;
    for (let seed = 1; seed <= 1500; seed++) {
      const random = rng(seed);
      const text = listing(random);
      const changed = Buffer.from(text);
      changed[Math.floor(random() * changed.length)] = '[]{},:"\\ 0x'.charCodeAt(Math.floor(random() * 11));
      for (const body of [Buffer.from(text), changed]) {
        const scan = scanJson(body);
        if (scan.tooDeep) continue;
        if (scan.inFields && scan.fields.length > 0) quick++;
        const want = outcome(() => parseMarked(body, 0, scan.numbers, scan.nulStrings));
        expect(
          outcome(() => parseScanned(body, 0, scanJson(body))),
          `seed ${seed}: ${body}`,
        ).toEqual(want);
      }
    }
    // The quick way was taken often enough for the comparison to mean something.
    expect(quick).toBeGreaterThan(300);
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('keeps a 64-bit id of every item exact, and a field named __proto__ an own field', () => {
    const body = Buffer.from(
      '{"data":[{"id":4611686018427387904,"n":"a"},{"n":"b","id":4611686018427395823}],"meta":{"next_cursor":"c1"}}',
    );
    const value = parseScanned(body, 0, scanJson(body)) as { data: { id: unknown }[] };
    expect(
      jsonText(
        value.data.map((item) => item.id),
        0,
      ),
    ).toBe('[4611686018427387904,4611686018427395823]');
    const proto = Buffer.from('[{"__proto__":12345678901234567890,"id":4611686018427387904}]');
    const items = parseScanned(proto, 0, scanJson(proto)) as object[];
    expect(Object.getPrototypeOf(items[0])).toBe(Object.prototype);
    expect(jsonText(items, 0)).toBe('[{"__proto__":12345678901234567890,"id":4611686018427387904}]');
  });

  it('reads a page of 100,000 other array fields beside its items once, not once per field for each', () => {
    // A hostile server's page: every field's array is recorded by the scan (a quadratic check over
    // them never finished).
    const others = Array.from({ length: 100_000 }, (_, i) => `"a${i}":[]`).join(',');
    const body = Buffer.from(`{"data":[{"id":4611686018427387904}],${others},"a7":[1],"meta":{}}`);
    const value = parseScanned(body, 0, scanJson(body)) as { data: unknown[]; a7: unknown[] };
    expect(jsonText(value.data, 0)).toBe('[{"id":4611686018427387904}]');
    expect(value.a7).toEqual([1]);
  });

  it('takes the items JSON.parse keeps when the listing is named twice', () => {
    const body = Buffer.from('{"data":[{"id":1,"x":12345678901234567890}],"data":[{"id":2}]}');
    expect(jsonText(parseScanned(body, 0, scanJson(body)), 0)).toBe('{"data":[{"id":2}]}');
  });
});
