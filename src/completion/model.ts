// Walks the commander program into plain data the three renderers share: the command tree, each
// command's options and positional arguments, and what kind of value each one takes. The renderers
// never look at commander, so all knowledge of "what completes to what" lives here.
import { Help, type Argument, type Command, type Option } from 'commander';
import { EVENTS, SCENARIOS } from '../webhook/events';
import { PROFILE_KEYS } from '../config/types';

/** What a value (of an option or a positional argument) completes to. */
export type ValueKind =
  | { kind: 'none' } // free text: nothing to offer
  | { kind: 'choices'; values: string[] }
  | { kind: 'file'; names?: string[] } // names: offered beside the files (--scenario NAME|FILE)
  | { kind: 'dir' }
  | { kind: 'profiles' }; // read from the config at completion time

export interface OptionSpec {
  short?: string;
  long?: string;
  description: string;
  /** The placeholder shown for the value, e.g. "format"; undefined for a flag. */
  valueName?: string;
  value?: ValueKind;
  /** Given more than once (variadic, or collected into an array). */
  repeatable: boolean;
}

export interface ArgSpec {
  name: string;
  description: string;
  required: boolean;
  variadic: boolean;
  value: ValueKind;
}

export interface CommandSpec {
  /** Names from the top: [] for the program, ["bookings", "list"] for `booking bookings list`. */
  path: string[];
  name: string;
  aliases: string[];
  description: string;
  /** The command's own options, help included; the globals are in CompletionSpec.globals. */
  options: OptionSpec[];
  args: ArgSpec[];
  commands: CommandSpec[];
}

export interface CompletionSpec {
  program: string;
  /** The program's options (except --version), accepted before or after any subcommand. */
  globals: OptionSpec[];
  root: CommandSpec;
}

const NONE: ValueKind = { kind: 'none' };
const FILE_WORDS = new Set(['file', 'files', 'capture', 'captures']);
const DIR_WORDS = new Set(['dir', 'directory']);

export function describeProgram(program: Command): CompletionSpec {
  const help = new Help();
  const globals = program.options.filter((o) => !o.hidden && o.long !== '--version').map(optionSpec);
  const root = commandSpec(program, [], help);
  root.options = root.options.filter((o) => !globals.some((g) => g.long === o.long));
  return { program: program.name(), globals, root };
}

function commandSpec(cmd: Command, path: string[], help: Help): CommandSpec {
  const subs = help.visibleCommands(cmd);
  return {
    path,
    name: cmd.name(),
    aliases: cmd.aliases(),
    description: firstLine(cmd.description()),
    options: help.visibleOptions(cmd).map(optionSpec),
    args: cmd.registeredArguments.map((a) => argSpec(a, path)),
    commands: subs.map((c) => {
      const spec = commandSpec(c, [...path, c.name()], help);
      // `help [command...]`, the program's and each group's (src/help.ts), names a command path
      // (`booking help bookings list`, `booking bookings help list`): its words are completed as the
      // tree's, level by level.
      return c.name() === 'help' ? { ...spec, args: [], commands: helpTree(cmd, [...path, 'help'], help) } : spec;
    }),
  };
}

/** The commands under `cmd` as words after `help`: names and subcommands only, nothing to run. */
function helpTree(cmd: Command, path: string[], help: Help): CommandSpec[] {
  return help
    .visibleCommands(cmd)
    .filter((c) => c.name() !== 'help')
    .map((c) => ({
      path: [...path, c.name()],
      name: c.name(),
      aliases: c.aliases(),
      description: firstLine(c.description()),
      options: [],
      args: [],
      commands: helpTree(c, [...path, c.name()], help),
    }));
}

function optionSpec(o: Option): OptionSpec {
  // An optional value (`--json [fields]`) is completed as a flag: the word after it is more often the
  // command or its argument (resolveJsonFlag in src/base/json-flag.ts decides the same way).
  const takesValue = o.required;
  const valueName = takesValue ? /[<[]([^>\]]*)[>\]]/.exec(o.flags)?.[1]?.replace(/\.\.\.$/, '') : undefined;
  return {
    short: o.short,
    long: o.long,
    description: firstLine(o.description),
    valueName,
    value: takesValue ? optionValue(o, valueName ?? '') : undefined,
    repeatable: o.variadic || Array.isArray(o.defaultValue),
  };
}

/**
 * Choices come from commander. Otherwise the option's name or placeholder says what it takes, by a
 * convention the command modules follow: `--profile` is a profile, `--event` a webhook event,
 * `--scenario` a built-in scenario's name or a file,
 * `<file>`/`<capture>` or `--x-file` a file, `<dir>` or `--x-dir` a directory.
 */
function optionValue(o: Option, valueName: string): ValueKind {
  if (o.argChoices) return { kind: 'choices', values: [...o.argChoices] };
  if (o.long === '--profile') return { kind: 'profiles' };
  if (o.long === '--event') return { kind: 'choices', values: [...EVENTS] };
  if (o.long === '--scenario') return { kind: 'file', names: Object.keys(SCENARIOS) };
  return pathKind([valueName, o.long?.replace(/^--/, '') ?? '']);
}

function argSpec(a: Argument, path: string[]): ArgSpec {
  return {
    name: a.name(),
    description: firstLine(a.description),
    required: a.required,
    variadic: a.variadic,
    value: argValue(a, path),
  };
}

/** Choices from commander; the `<key>` of `config …` is a profile setting; else files by name. */
function argValue(a: Argument, path: string[]): ValueKind {
  if (a.argChoices) return { kind: 'choices', values: [...a.argChoices] };
  if (path[0] === 'config' && a.name() === 'key') return { kind: 'choices', values: [...PROFILE_KEYS] };
  return pathKind([a.name()]);
}

function pathKind(names: string[]): ValueKind {
  const words = names.flatMap((n) => n.toLowerCase().split(/[^a-z]+/));
  if (words.some((w) => FILE_WORDS.has(w))) return { kind: 'file' };
  if (words.some((w) => DIR_WORDS.has(w))) return { kind: 'dir' };
  return NONE;
}

function firstLine(text: string): string {
  return text.split('\n')[0]!.trim();
}

/** Every command in the tree, parents before children. */
export function allCommands(root: CommandSpec): CommandSpec[] {
  return [root, ...root.commands.flatMap(allCommands)];
}

/** The options a command accepts: its own, then the globals it does not redefine. */
export function optionsAt(spec: CompletionSpec, cmd: CommandSpec): OptionSpec[] {
  const own = new Set(cmd.options.flatMap(optionWords));
  return [...cmd.options, ...spec.globals.filter((g) => !optionWords(g).some((w) => own.has(w)))];
}

/** "-o", "--output": the words an option can be written as. */
export function optionWords(o: OptionSpec): string[] {
  return [o.short, o.long].filter((w): w is string => Boolean(w));
}
