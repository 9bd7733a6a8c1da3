import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { escapeControl, escapeJsonText } from '../../src/output/escape';
import { flatten, getPath, parsePath, project } from '../../src/output/paths';
import { stringifyJson } from '../../src/output/json';
import { items } from '../helpers/output-kit';

const DATA = items(`[{"uid":"u1","startTime":"t","attendees":[{"name":"Ann","email":"a@x"},{"name":"Bob"}],
  "meta":{"n":12345678901234567890}}]`)[0];

describe('a member named __proto__', () => {
  it('is projected as the member it is, and nothing is written into Object.prototype', () => {
    const value = items(`[{"__proto__":{"polluted":"yes","n":{"m":1}},"uid":"u1"}]`)[0];
    const out = project(value, [parsePath('__proto__.polluted'), parsePath('__proto__.n.m'), parsePath('uid')]);
    expect(stringifyJson(out)).toBe('{"__proto__":{"polluted":"yes","n":{"m":1}},"uid":"u1"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
  });
});

describe('dot paths', () => {
  it('parse dots and brackets', () => {
    expect(parsePath('attendees[0].name')).toEqual(['attendees', '0', 'name']);
    expect(parsePath('a.b')).toEqual(['a', 'b']);
    expect(parsePath('')).toEqual([]);
  });
  it('find keys exactly, then loosely, and map over arrays', () => {
    expect(getPath(DATA, parsePath('start_time'))).toBe('t');
    expect(getPath(DATA, parsePath('attendees.1.name'))).toBe('Bob');
    expect(getPath(DATA, parsePath('attendees.name'))).toEqual(['Ann', 'Bob']);
    expect(getPath(DATA, parsePath('attendees.email'))).toEqual(['a@x']);
    expect(getPath(DATA, parsePath('uid.x'))).toBeUndefined();
    expect(getPath(DATA, parsePath('attendees.5.name'))).toBeUndefined();
  });
  it('project into the same nesting, in the order asked', () => {
    const p = project(DATA, ['meta.n', 'attendees.name', 'uid', 'nope.x'].map(parsePath));
    expect(stringifyJson(p)).toBe('{"meta":{"n":12345678901234567890},"attendees":[{"name":"Ann"},{"name":"Bob"}],"uid":"u1"}');
    expect(project(DATA, [parsePath('attendees.1.name')])).toEqual({ attendees: [null, { name: 'Bob' }] });
    expect(project('scalar', [parsePath('a')])).toBe('scalar');
  });
  it('flatten to leaves with dot paths', () => {
    expect(flatten({ a: { b: 1, c: [] }, d: [{ e: 2 }] })).toEqual([
      ['a.b', 1],
      ['a.c', []],
      ['d.0.e', 2],
    ]);
  });
});

describe('escaping', () => {
  it('makes C0, DEL, C1 and bidi controls visible', () => {
    expect(escapeControl('\x00\x1b\x7f\x85\u061c\u200f\u2028\u202e\u2066é日')).toBe(
      '\\x00\\x1b\\x7f\\x85\\u061c\\u200f\\u2028\\u202e\\u2066é日',
    );
  });
  it('escapes in JSON text what JSON.stringify leaves raw, and nothing else', () => {
    const json = JSON.stringify({ k: '\x7f\u0085\u2028\u202eé' });
    expect(escapeJsonText(json)).toBe('{"k":"\\u007f\\u0085\\u2028\\u202eé"}');
    expect(JSON.parse(escapeJsonText(json))).toEqual(JSON.parse(json));
  });
});

describe('start-up cost', () => {
  // tsv/ndjson/json must not load cli-table3 or chalk: walk the static imports from index.ts.
  it('keeps cli-table3 and chalk out of the static import graph', () => {
    const root = join(__dirname, '../../src/output');
    const seen = new Set<string>();
    const heavy: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const m of source.matchAll(/^(?:import|export)\s+(?!type\b)[^'"]*?from\s+'([^']+)'/gm)) {
        const spec = m[1]!;
        if (spec.startsWith('./')) visit(join(dirname(file), `${spec}.ts`));
        else if (/cli-table3|chalk/.test(spec)) heavy.push(`${file}: ${spec}`);
      }
    };
    visit(join(root, 'index.ts'));
    expect(seen.size).toBeGreaterThan(4);
    expect(heavy).toEqual([]);
  });
});
