// A line of plain words (`booking bookings get bk_1`) runs without commander (src/commands/plain.ts).
// For every command in the tree, its plain line gives the run function what commander's parse gives
// it, the options that the global options are read from included; a line commander must judge (too
// few or too many words, an alias, an argument with a parser) still gets commander's answer.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { TREE } from '../../src/commands/register';
import { isGroup, type Tree } from '../../src/commands/tree';
import { buildCommand } from '../../src/commands/build';
import type { CommandDefinition } from '../../src/commands/define';
import { plainCommand, plainValues } from '../../src/commands/plain';
import type { Context } from '../../src/context';
import { runMain } from '../helpers/in-process';

interface Leaf {
  path: string[];
  definition: CommandDefinition<unknown>;
}

async function leaves(tree: Tree, path: string[] = []): Promise<Leaf[]> {
  const found: Leaf[] = [];
  for (const [name, loaded] of Object.entries(tree)) {
    const entry = typeof loaded === 'function' ? await loaded() : loaded;
    if (isGroup(entry)) found.push(...(await leaves(entry.commands, [...path, name])));
    else found.push({ path: [...path, name], definition: entry });
  }
  return found;
}

/** What commander hands the run function and the context for these words. */
async function commanderGives(definition: CommandDefinition<unknown>, words: string[]) {
  let options: Record<string, unknown> | undefined;
  let values: unknown;
  const deps = {
    context: (cmd: Command) => {
      options = cmd.optsWithGlobals();
      return {} as Context;
    },
    setExitCode: () => {},
  };
  const cmd = buildCommand(definition, deps, async (v) => void (values = v));
  cmd.exitOverride().configureOutput({ writeErr: () => {}, writeOut: () => {} });
  await cmd.parseAsync(words, { from: 'user' });
  return { options, values };
}

/** Words for the command's required arguments (a variadic one gets two). */
function argumentWords(definition: CommandDefinition<unknown>): string[] {
  return (definition.arguments ?? []).flatMap((arg, i) => {
    const syntax = 'kind' in arg ? arg.flags : arg[0];
    if (!syntax.startsWith('<')) return [];
    return syntax.includes('...') ? [`w${i}a`, `w${i}b`] : [`w${i}`];
  });
}

const all = await leaves(TREE);

describe('a plain line', () => {
  it('finds every command of the tree', () => {
    expect(all.map((l) => l.path.join(' '))).toContain('bookings get');
    expect(all.length).toBeGreaterThan(20);
  });

  it.each(all.map((l) => [l.path.join(' '), l] as const))('gives %s what commander gives it', async (_, { path, definition }) => {
    const words = argumentWords(definition);
    const plain = plainValues(definition, words);
    if ((definition.arguments ?? []).some((a) => 'kind' in a && (a.parser || a.choices))) {
      // An argument with a parser is commander's to check: such a line goes to commander.
      expect(plain).toBeUndefined();
      return;
    }
    const viaTree = await plainCommand(TREE, [...path, ...words]);
    expect(viaTree?.definition).toBe(definition);
    expect(plain).toEqual(await commanderGives(definition, words));
    // With fewer words than required, or one more than it takes, commander judges the line.
    if (words.length > 0) expect(plainValues(definition, words.slice(1))).toBeUndefined();
    if (!(definition.arguments ?? []).some((a) => ('kind' in a ? a.flags : a[0]).includes('...'))) {
      expect(plainValues(definition, [...words, ...optionalWords(definition), 'extra'])).toBeUndefined();
    }
  });
});

/** Words for the optional arguments too, so that one more is one too many. */
function optionalWords(definition: CommandDefinition<unknown>): string[] {
  return (definition.arguments ?? []).filter((a) => ('kind' in a ? a.flags : a[0]).startsWith('[')).map((_, i) => `o${i}`);
}

describe('a plain line commander must judge', () => {
  it('one word too many is refused as before', async () => {
    const r = await runMain(['bookings', 'get', 'bk_1', 'bk_2'], {
      env: { BOOKING_API_KEY: 'sk_test_x', BOOKING_BASE_URL: 'http://127.0.0.1:9' },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: too many arguments for 'get'/);
  });

  it('a missing argument gets the usage line', async () => {
    const r = await runMain(['bookings', 'get']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("error: missing required argument 'uid'\nusage: booking bookings get [options] <uid>\n");
  });

  it('an alias reaches the same command', async () => {
    const r = await runMain(['bookings', 'view'], {});
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("missing required argument 'uid'");
  });
});
