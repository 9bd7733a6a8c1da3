// A line of plain words that names a command, with no option word in it (`booking bookings get
// bk_1`), runs without commander: its modules, the program and the parse are about an eighth of such
// a run's start-up (docs/performance.md), and the line needs none of them. Its words name the
// command through the tree (tree.ts), the rest are the command's arguments, and every option has its
// default, as commander would give them; the global options have their defaults too (readGlobals).
// A line that commander must judge goes to commander, which answers as before: a name that is not
// the tree's own (an alias, a typo, `help`), a group without its subcommand, too few or too many
// words, an argument with a parser or choices. test/in-process/plain-line.test.ts holds every
// command's plain line to what commander gives it.
import { type CommandDefinition, camelCase } from './define';
import { isGroup, type Tree } from './tree';

/** What a plain line runs: the command's definition, its options (their defaults) and its values. */
export interface PlainCommand {
  definition: CommandDefinition<unknown>;
  /** The command's words (`['bookings', 'get']`), for messages. */
  path: string[];
  /** The options alone, as commander's optsWithGlobals() would give them: what readGlobals reads. */
  options: Record<string, unknown>;
  /** The options and the arguments under their names: what the run function gets. */
  values: Record<string, unknown>;
}

/** Whether no word of the line is an option (none starts with `-`, `--` included). */
export function plainWords(argv: readonly string[]): boolean {
  return argv.length > 0 && !argv.some((arg) => arg.startsWith('-'));
}

/** The command a plain line runs, or undefined when commander must parse the line. */
export async function plainCommand(tree: Tree, argv: readonly string[]): Promise<PlainCommand | undefined> {
  if (!plainWords(argv)) return undefined;
  let level = tree;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (!Object.hasOwn(level, word)) return undefined;
    const loaded = level[word]!;
    const entry = typeof loaded === 'function' ? await loaded() : loaded;
    if (isGroup(entry)) {
      level = entry.commands;
      continue;
    }
    const taken = plainValues(entry, argv.slice(i + 1));
    return taken && { definition: entry, path: argv.slice(0, i + 1), ...taken };
  }
  return undefined;
}

/** The options' defaults and the arguments' values, as commander gives them; undefined when it must judge. */
export function plainValues(
  definition: CommandDefinition<unknown>,
  words: readonly string[],
): { options: Record<string, unknown>; values: Record<string, unknown> } | undefined {
  const options = optionDefaults(definition);
  const values: Record<string, unknown> = { ...options };
  const declared = definition.arguments ?? [];
  let used = 0;
  for (const [i, arg] of declared.entries()) {
    if ('kind' in arg && (arg.parser || arg.choices)) return undefined;
    const syntax = 'kind' in arg ? arg.flags : arg[0];
    const variadic = syntax.endsWith('...>') || syntax.endsWith('...]');
    const name = camelCase(syntax.slice(1, variadic ? -4 : -1));
    const given = variadic ? words.slice(i) : words.slice(i, i + 1);
    if (given.length === 0 && syntax.startsWith('<')) return undefined; // missing: commander's usage error
    if (variadic) values[name] = [...given];
    else if (given.length > 0) values[name] = given[0];
    used += given.length;
  }
  return used === words.length ? { options, values } : undefined; // more words: commander refuses them
}

/**
 * Each option's value when the line gives none, by commander's rule: its default; for `--no-x`,
 * true (or its default) unless an `--x` was declared before it.
 */
function optionDefaults(definition: CommandDefinition<unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const longs = new Set<string>();
  for (const option of definition.options ?? []) {
    const flags = option.flags.split(/[ |,]+/);
    const long = flags.find((f) => f.startsWith('--'));
    const name = (long ?? flags[0]!).replace(/^--?/, '');
    if (long?.startsWith('--no-')) {
      const key = camelCase(name.slice(3));
      if (!longs.has(`--${name.slice(3)}`)) values[key] = option.defaultValue ?? true;
    } else if (option.defaultValue !== undefined) {
      values[camelCase(name)] = option.defaultValue;
    }
    if (long) longs.add(long);
  }
  return values;
}
