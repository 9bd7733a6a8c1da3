// The command tree as data: each command's name beside a loader of its file, or a group of them.
// A loader is an `import()`, which the build makes a lazy require: a command's file (and what it
// imports) is evaluated only when the command is registered, and a run registers only the command
// it names (`booking bookings get` loads bookings/get.ts and no other command file). Help, an alias
// (`bookings view`) or a word no entry has (a typo, `help`) registers the whole level, for listings
// and suggestions. The names are checked against the files' own at registration.
import type { CommandDefinition } from './define';

/**
 * A loader of a command's file, giving its definition (defineCommand's); or of a group's, giving the
 * group: the top-level groups are loaded like commands, so that a run evaluates nothing of another
 * top-level command.
 */
// biome-ignore lint/suspicious/noExplicitAny: each command's own options type; the tree holds them all
type Loader = () => Promise<CommandDefinition<any> | Group>;

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

/** Whether a loaded entry is a group (else a command's definition). */
export function isGroup(entry: CommandDefinition<unknown> | Group): entry is Group {
  return 'commands' in entry;
}
