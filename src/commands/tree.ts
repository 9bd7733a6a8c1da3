// The command tree as data: each command's name beside a loader of its file, or a group of them.
// A loader is an `import()`, which the build makes a lazy require: a command's file (and what it
// imports) is evaluated only when the command is registered, and a run registers only the command
// it names (`booking bookings get` loads bookings/get.ts and no other command file). Help, an alias
// (`bookings view`) or a word no entry has (a typo, `help`) registers the whole level, for listings
// and suggestions. The names are checked against the files' own at registration.
import { Command } from 'commander';
import type { CommandDeps } from './deps';

/**
 * A loader of a command's file, giving its constructor (defineCommand's, or one that builds a Command
 * itself); or of a group's, giving the group: the top-level groups are loaded like commands, so that
 * a run evaluates nothing of another top-level command.
 */
type Loader = () => Promise<((deps: CommandDeps) => Command) | Group>;

export interface Group {
  description: string;
  /** Each subcommand's name and loader, in help order: one line each. */
  commands: Tree;
  /** Left out of `booking --help` (the completion scripts' helper). */
  hidden?: boolean;
}

/** Names (as typed) to commands, in help order. */
export type Tree = Record<string, Loader | Group>;

/** A group of commands: `booking <name> <subcommand>`. */
export function group(description: string, commands: Tree, settings: { hidden?: boolean } = {}): Group {
  return { description, commands, ...settings };
}

/**
 * Adds the commands of `tree` to `parent`: only the one `words[0]` names (and within a group, only
 * the one `words[1]` names), or all of them when the word names none.
 */
export async function registerTree(parent: Command, tree: Tree, deps: CommandDeps, words: readonly string[] = []): Promise<void> {
  const [word, ...rest] = words;
  const names = word !== undefined && Object.hasOwn(tree, word) ? [word] : Object.keys(tree);
  const made = await Promise.all(
    names.map(async (name): Promise<[Command, boolean]> => {
      const loaded = tree[name]!;
      const entry = typeof loaded === 'function' ? await loaded() : loaded;
      if (typeof entry === 'function') return [entry(deps), false];
      const cmd = new Command(name).description(entry.description);
      if (entry.hidden) cmd.helpCommand(false);
      await registerTree(cmd, entry.commands, deps, names.length === 1 ? rest : []);
      return [cmd, entry.hidden === true];
    }),
  );
  for (const [i, [cmd, hidden]] of made.entries()) {
    // A bug, caught by any test that builds the whole program: the tree and the file disagree.
    if (cmd.name() !== names[i]) throw new Error(`the command tree names "${names[i]}" where its file defines "${cmd.name()}"`);
    parent.addCommand(cmd, { hidden });
  }
}
