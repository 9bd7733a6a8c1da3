// The lossless path (src/output/json.ts with the scan of src/base/json-scan.ts) against lossless-json as the
// reference, over seeded random documents with numbers at every edge and strings that look like the
// marks it uses: every number comes back byte for byte, every string and key unchanged.
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { isLosslessNumber, jsonLine, jsonText, parseJson, scalarText, stringifyJson } from '../../src/output/json';
import { makeResponse } from '../../src/http/response';
import { escapeJsonText } from '../../src/output/escape';
import { jsonGen, rng } from '../helpers/json-gen';

const reference = (text: string) => losslessParse(text, undefined, { onDuplicateKey: ({ newValue }) => newValue });
const SEEDS = 400;

describe('lossless JSON: random documents against lossless-json', () => {
  it(`round-trips ${SEEDS} documents byte for byte, compact and pretty`, () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const text = jsonGen(rng(seed)).value(5);
      const ref = reference(text);
      const ours = parseJson(text);
      expect(stringifyJson(ours), `seed ${seed}: ${text}`).toBe(losslessStringify(ref));
      expect(stringifyJson(ours, 2), `seed ${seed}`).toBe(losslessStringify(ref, undefined, 2));
      expect(jsonLine(ours, 2), `seed ${seed}`).toBe(`${escapeJsonText(losslessStringify(ref, undefined, 2)!)}\n`);
    }
  });

  it('keeps every number as sent, whatever its neighbours, top level included', () => {
    const gen = jsonGen(rng(7));
    for (let i = 0; i < 2000; i++) {
      const n = gen.number();
      expect(stringifyJson(parseJson(n)), n).toBe(n);
      const mixed = `[${n},"\\u0000${n}",{"\\u0000${n}":${n}}]`;
      expect(stringifyJson(parseJson(mixed)), n).toBe(mixed);
      expect(scalarText((parseJson(`{"v":${n}}`) as { v: unknown }).v), n).toBe(n);
    }
  });

  it('tells marks from real strings that look like them, in and out', () => {
    const text = '{"a":"\\u0000123","b":12345678901234567890,"c":["\\u0000\\u00001.50",1.50],"\\u0000-0":-0}';
    const value = parseJson(text) as Record<string, unknown>;
    expect(value.a).toBe('\u0000123');
    expect(isLosslessNumber(value.b)).toBe(true);
    expect((value.c as unknown[])[0]).toBe('\u0000\u00001.50');
    expect(value['\u0000-0']).toMatchObject({ value: '-0' });
    // A real string shaped like a written mark makes the count differ: the exact writer takes over.
    expect(stringifyJson(value)).toBe(text);
    expect(jsonText({ s: '\u000042', n: value.b })).toBe('{"s":"\\u000042","n":12345678901234567890}');
  });

  it('a response parses the same way, and reports bad JSON with the message of the body as sent', () => {
    const res = (text: string) => makeResponse('GET', new URL('http://127.0.0.1/x'), 200, {}, Buffer.from(text));
    expect(stringifyJson(res('\uFEFF {"id": 1e400}').json())).toBe('{"id":1e400}');
    for (const bad of ['{"id": 12345678901234567890,}', '[01]', '[1.2.3]', '{12345678901234567890: 1}', '[-]']) {
      expect(() => res(bad).json(), bad).toThrow(/not valid JSON/);
      expect(() => res(bad).json(), bad).not.toThrow(/u0000/);
    }
  });
});
