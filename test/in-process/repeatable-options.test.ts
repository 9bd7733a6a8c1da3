// Repeatable options (--set, -F, --secret, --forward-to, --webhook-url) collect every occurrence, in
// order, in one list per run; a declared default list is never changed (program trees are built again
// for every in-process run, and share their option declarations).
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { collect } from '../../src/base/options';

const program = (defaults?: string[]) => {
  const p = new Command().exitOverride().option('-F, --field <kv>', 'repeatable', collect(String), defaults);
  return p;
};

describe('collect', () => {
  it('keeps every occurrence in order', () => {
    const p = program().parse(['-F', 'a', '-F', 'b', '--field', 'c'], { from: 'user' });
    expect(p.opts().field).toEqual(['a', 'b', 'c']);
  });

  it('never changes a default list, run after run', () => {
    const defaults: string[] = [];
    expect(program(defaults).parse(['-F', 'a'], { from: 'user' }).opts().field).toEqual(['a']);
    expect(program(defaults).parse(['-F', 'b'], { from: 'user' }).opts().field).toEqual(['b']);
    expect(program(defaults).parse([], { from: 'user' }).opts().field).toEqual([]);
    expect(defaults).toEqual([]);
  });

  it('20,000 occurrences make one list of 20,000', () => {
    const args = Array.from({ length: 20_000 }, (_, i) => ['-F', String(i)]).flat();
    const field = program().parse(args, { from: 'user' }).opts().field as string[];
    expect(field).toHaveLength(20_000);
    expect(field[19_999]).toBe('19999');
  });
});
