// scripts/bundle/command-bundles.mjs against src/commands/register.ts and the groups' files as they
// are: the bundle of one command keeps that command's line and no other, and the build fails on a
// line it cannot read rather than bundling more (or less) than it should.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandEntries, keepOnly } from '../../scripts/bundle/command-bundles.mjs';
import { topLevelNames } from '../../src/commands/register';
import { ROOT } from '../helpers/cli';

const read = (...parts: string[]) => readFileSync(join(ROOT, 'src', 'commands', ...parts), 'utf8');
const register = read('register.ts');

describe('command bundles', () => {
  it('reads a line of TREE for every top-level command, by name (the hidden __complete is computed)', () => {
    const names = commandEntries(register).map((e) => e.name);
    expect(names).toEqual(topLevelNames().map((n) => (n === '__complete' ? undefined : n)));
  });

  it("keeps the one command's line, and nothing else of the file", () => {
    const { text, kept } = keepOnly(register, 'bookings');
    expect(kept.path).toBe('./bookings/index');
    expect(commandEntries(text).map((e) => e.name)).toEqual(['bookings']);
    expect(text.split('\n').length).toBe(register.split('\n').length - (topLevelNames().length - 1));
    const group = keepOnly(read('bookings', 'index.ts'), 'get').text;
    expect(commandEntries(group).map((e) => [e.name, e.path])).toEqual([['get', './get']]);
  });

  it('reads every group file of the tree', () => {
    const groups = commandEntries(register)
      .map((e) => read(`${e.path.slice(2)}.ts`))
      .filter((text) => text.includes('group('));
    expect(groups.length).toBeGreaterThanOrEqual(4);
    for (const text of groups) expect(commandEntries(text).length).toBeGreaterThan(0);
  });

  it('fails on a name the file does not have', () => {
    expect(() => keepOnly(register, 'nope', 'register.ts')).toThrow(/register.ts has 0 lines for "nope"/);
  });

  it('fails on a line it cannot read: an import() elsewhere, an entry over two lines', () => {
    const stray = `${register}\nexport const late = () => import('./api/index');\n`;
    expect(() => commandEntries(stray)).toThrow(/cannot read this line.*export const late/);
    const split = register.replace("  api: () => import('./api/index')", "  api: () =>\n    import('./api/index')");
    expect(split).not.toBe(register);
    expect(() => keepOnly(split, 'bookings')).toThrow(/cannot read this line/);
  });
});
