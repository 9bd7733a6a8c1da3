// scripts/bundle/command-bundles.mjs against src/commands/register.ts as it is: the bundle of one
// top-level command keeps that command's line of TREE and no other, and the build fails on a line it
// cannot read rather than bundling more (or less) than it should.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keepOnly, treeEntries } from '../../scripts/bundle/command-bundles.mjs';
import { topLevelNames } from '../../src/commands/register';
import { ROOT } from '../helpers/cli';

const register = readFileSync(join(ROOT, 'src', 'commands', 'register.ts'), 'utf8');

describe('command bundles', () => {
  it('reads a line of TREE for every top-level command, by name (the hidden __complete is computed)', () => {
    const names = treeEntries(register).entries.map((e) => e.name);
    expect(names).toEqual(topLevelNames().map((n) => (n === '__complete' ? undefined : n)));
  });

  it("keeps the one command's line, and nothing else of TREE", () => {
    const kept = keepOnly(register, 'bookings');
    const { entries } = treeEntries(kept);
    expect(entries.map((e) => e.name)).toEqual(['bookings']);
    expect(entries[0]!.line).toContain("import('./bookings/index')");
    // Around TREE the file is as it was.
    expect(kept.slice(0, kept.indexOf('const TREE'))).toBe(register.slice(0, register.indexOf('const TREE')));
    expect(kept.slice(kept.indexOf('\n};\n'))).toBe(register.slice(register.indexOf('\n};\n')));
  });

  it('fails on a name TREE does not have', () => {
    expect(() => keepOnly(register, 'nope')).toThrow(/TREE has 0 lines for "nope"/);
  });

  it('fails on a line it cannot read: a group imported at the top, an entry over two lines', () => {
    const shorthand = register.replace("  bookings: () => import('./bookings/index').then((m) => m.bookings),", '  bookings,');
    expect(shorthand).not.toBe(register);
    expect(() => treeEntries(shorthand)).toThrow(/cannot read this line of TREE.*bookings,/);
    const split = register.replace("  api: () => import('./api/index')", "  api: () =>\n    import('./api/index')");
    expect(split).not.toBe(register);
    expect(() => keepOnly(split, 'bookings')).toThrow(/cannot read this line/);
  });

  it('fails when TREE is not found', () => {
    expect(() => treeEntries(register.replace('const TREE: Tree = {', 'const COMMANDS: Tree = {'))).toThrow(/not found/);
  });
});
