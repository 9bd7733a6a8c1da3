// The one skeleton of a leaf command: its name, arguments, options, examples and run function, as
// data. src/commands/build.ts makes a commander Command of it (arguments merged into the options
// object, the context built, the exit code reported, examples at the end of the help), written there
// once instead of in every command; src/commands/plain.ts runs it without commander for a line of
// plain words (`booking bookings get bk_1`). The run function's options are typed from the
// declarations (option(), choice(), argument() below), so the two cannot disagree. Nothing here
// loads commander: a command's file, and what it imports, stays light enough for a plain line.
import type { Command } from 'commander';
import type { Context } from '../context';
import type { RunResult } from './deps';

/** A spec's argument: ['<uid>', 'the booking uid'] (its value a string), or argument() for a parser or choices. */
type ArgumentDecl = readonly [syntax: string, description: string] | DeclaredArgument<string, unknown, boolean>;

interface CommandSpecBase<A extends readonly ArgumentDecl[], O extends readonly DeclaredOption<string, unknown, boolean>[]> {
  name: string;
  aliases?: string[];
  description: string;
  /**
   * commander argument syntax and description: ['<uid>', 'the booking uid'], ['[file]', '…']; or
   * argument(), for one with choices or a parser. Each lands in the options under its camelCased name.
   */
  arguments?: A;
  /** The command's own options, in help order, made by option() or choice() below (their types come along). */
  options?: O;
  /** The command sends requests to the service (the output matrix test then runs it against a server). */
  sendsRequests?: boolean;
  /**
   * What the command prints when it is not records (the default): 'a completion script', 'a path'.
   * Such a command refuses -o, --json, --jq and --fields with exit 2 (src/output/shaping.ts).
   */
  printsText?: string;
  /** Help text between the options and the examples: what the exit status means, say. */
  notes?: string;
  /**
   * The command runs until stopped (watch, listen, sandbox): its help, its man page and the README
   * state the one rule for such commands (STOPPED_RULE).
   */
  runsUntilStopped?: boolean;
  /** Lines shown under "Examples:" at the end of the help, as typed (none: no section). */
  examples: string[];
}

/** The run function: gets the typed options, returns an exit code (nothing for 0) or throws a typed error. */
export type RunFunction<I> = (opts: I, ctx: Context) => RunResult;

/** A leaf command: its arguments and options declared, their values typed from the declarations. */
export interface CommandSpec<A extends readonly ArgumentDecl[], O extends readonly DeclaredOption<string, unknown, boolean>[]>
  extends CommandSpecBase<A, O> {
  /**
   * Gets the declared arguments and options under their camelCased names, typed from the
   * declarations (Values). A run function written apart that names its options type from the
   * definition (OptionsOf<typeof newCmdX>) is given as an arrow with its result type,
   * `run: (opts, ctx): RunResult => runX(opts, ctx)`: TypeScript then need not read runX to type newCmdX.
   */
  run: RunFunction<Values<A, O>>;
}

/**
 * A command as defined: the spec, its options typed I. buildCommand(definition, deps) makes the
 * commander Command (a test passes its own run function as a third argument).
 */
export interface CommandDefinition<I>
  extends CommandSpecBase<readonly ArgumentDecl[], readonly DeclaredOption<string, unknown, boolean>[]> {
  run: RunFunction<I>;
}

/** What a command's run function gets: OptionsOf<typeof newCmdBookingsList>. */
export type OptionsOf<C> = C extends CommandDefinition<infer I> ? I : never;

/** The definition of a spec (see CommandSpec): the spec itself, typed for buildCommand and OptionsOf. */
export function defineCommand<
  const A extends readonly ArgumentDecl[] = [],
  const O extends readonly DeclaredOption<string, unknown, boolean>[] = [],
>(spec: CommandSpec<A, O>): CommandDefinition<Values<A, O>> {
  return spec as unknown as CommandDefinition<Values<A, O>>;
}

/**
 * The exit rule of every command that runs until stopped, as its help and man page state it: a stop
 * asked for is a clean end, not an interruption of work in progress.
 */
export const STOPPED_RULE =
  'Runs until stopped: Ctrl-C (SIGINT) or SIGTERM stops it cleanly with exit 0. A failure before that is exit 1 (2 for a usage error).';

/** The commands that run until stopped (CommandSpec.runsUntilStopped). */
export const runsUntilStopped = new WeakSet<Command>();

/** The commands that print text, not records, and what (CommandSpec.printsText). */
export const printsText = new WeakMap<Command, string>();

/** What the program knows of a command besides its commander definition. */
interface CommandFact {
  sendsRequests: boolean;
}

/** Each command's facts, for those that have any. */
export const commandFacts = new WeakMap<Command, CommandFact>();

/** The text a command's help ends with: its examples, one command line each, indented. */
export function examplesText(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

// ---- Declarations that carry their types ----
// option('--page-size <n>', …, intOption(1, 100)) is the declaration of a commander Option that also
// says, to the type checker, that it gives `pageSize?: number`: the key from the long flag (camelCased, `--no-x` → x),
// the value from the flag's syntax and the parser's return type, required when it has a default or is
// a `--no-` flag. A spec's run function gets the values of all its declarations (Values below).

declare const declared: unique symbol;

/**
 * An option or argument as declared: what buildCommand makes commander's Option or Argument of, and
 * what a plain line reads an option's default from.
 */
export interface Declaration {
  /** '--page-size <n>', '-L, --limit <n>', '--no-paginate'; for an argument '<uid>', '[file]', '<capture...>'. */
  readonly flags: string;
  readonly description: string;
  readonly parser?: (value: string, previous: never) => unknown;
  readonly defaultValue?: unknown;
  /** The default as the help shows it ('1G'), when not its value. */
  readonly defaultText?: string;
  /** commander refuses any other value (choice()). */
  readonly choices?: readonly string[];
  /** Listed in the help and completions only; the parser decides (helpChoices()). */
  readonly shownChoices?: readonly string[];
  /** Options (their value keys) that may not be given with this one (conflicting()). */
  readonly conflicts?: readonly string[];
}

/** An option giving `key` the type `value`, always present when `present` is true (the key is for types only). */
export type DeclaredOption<K extends string, V, P extends boolean> = Declaration & {
  readonly kind: 'option';
  readonly [declared]: { key: K; value: V; present: P };
};

/** An argument giving `key` the type `value`, always present when `present` is true (the key is for types only). */
export type DeclaredArgument<K extends string, V, P extends boolean> = Declaration & {
  readonly kind: 'argument';
  readonly [declared]: { key: K; value: V; present: P };
};

/** 'page-size' → 'pageSize', as commander names an option's value. */
type Camel<S extends string> = S extends `${infer H}-${infer T}` ? `${H}${Capitalize<Camel<T>>}` : S;

/** '-L, --limit <n>' → 'limit'; '--no-paginate' → 'no-paginate'. */
type LongFlag<F extends string> = F extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;

type Negated<F extends string> = LongFlag<F> extends `no-${string}` ? true : false;

type OptionKey<F extends string> = LongFlag<F> extends `no-${infer N}` ? Camel<N> : Camel<LongFlag<F>>;

/** `<v...>` a list, `<v>` a value, `[v]` a value or true (the flag alone), no value a boolean. */
type OptionValue<F extends string, T> = F extends `${string}...>${string}`
  ? T[]
  : F extends `${string}<${string}`
    ? T
    : F extends `${string}[${string}`
      ? T | true
      : boolean;

/** '<uid>' → 'uid', '[file]' → 'file', '<capture...>' → 'capture'. */
type ArgumentKey<S extends string> = S extends `${'<' | '['}${infer N}${'>' | ']'}` ? Camel<N extends `${infer M}...` ? M : N> : never;
type ArgumentValue<S extends string, T> = S extends `${string}...${string}` ? T[] : T;
type ArgumentPresent<S extends string> = S extends `<${string}` ? true : false;

type Parser<T> = (value: string, previous: never) => T;

/** An option with its type: option('--port <port>', 'port to listen on', intOption(0, 65_535), 8787). */
export function option<const F extends string, T = string>(
  flags: F,
  description: string,
  parser?: Parser<T>,
): DeclaredOption<OptionKey<F>, OptionValue<F, NoInfer<T>>, Negated<F>>;
export function option<const F extends string, T = string>(
  flags: F,
  description: string,
  parser: Parser<T> | undefined,
  defaultValue: OptionValue<F, T>,
  defaultText?: string,
): DeclaredOption<OptionKey<F>, OptionValue<F, NoInfer<T>>, true>;
export function option(
  flags: string,
  description: string,
  parser?: Parser<unknown>,
  defaultValue?: unknown,
  defaultText?: string,
): DeclaredOption<string, unknown, boolean> {
  return { kind: 'option', flags, description, parser, defaultValue, defaultText } as DeclaredOption<string, unknown, boolean>;
}

/** An option whose value is one of `choices` (commander refuses others, lists them in the help). */
export function choice<const F extends string, const C extends readonly string[]>(
  flags: F,
  description: string,
  choices: C,
): DeclaredOption<OptionKey<F>, C[number], Negated<F>>;
export function choice<const F extends string, const C extends readonly string[]>(
  flags: F,
  description: string,
  choices: C,
  defaultValue: C[number],
): DeclaredOption<OptionKey<F>, C[number], true>;
export function choice(
  flags: string,
  description: string,
  choices: readonly string[],
  defaultValue?: string,
): DeclaredOption<string, unknown, boolean> {
  return { kind: 'option', flags, description, choices, defaultValue } as DeclaredOption<string, unknown, boolean>;
}

/**
 * The option or argument with `choices` listed in its help and completions, its own parser kept
 * (commander's .choices() would replace it): for a parser with its own one-line error, or one that
 * lets other values through.
 */
export function helpChoices<D extends Declaration>(declared: D, choices: readonly string[]): D {
  return { ...declared, shownChoices: [...choices] };
}

/**
 * The option refused (a usage error, exit 2) when any of `keys` (the other options' value keys) is
 * given with it: commander's .conflicts(), which counts a given value only, never a default.
 */
export function conflicting<D extends Declaration>(declared: D, ...keys: string[]): D {
  return { ...declared, conflicts: keys };
}

/** An argument with a parser (and choices shown in the help), typed as the parser's result. */
export function argument<const S extends string, T = string>(
  syntax: S,
  description: string,
  parser?: Parser<T>,
): DeclaredArgument<ArgumentKey<S>, ArgumentValue<S, NoInfer<T>>, ArgumentPresent<S>>;
export function argument(syntax: string, description: string, parser?: Parser<unknown>): DeclaredArgument<string, unknown, boolean> {
  return { kind: 'argument', flags: syntax, description, parser } as DeclaredArgument<string, unknown, boolean>;
}

/** The declarations' facts: { key, value, present } of each. */
type Facts<D> = D extends { readonly [declared]: infer F }
  ? F
  : D extends readonly [infer S extends string, string]
    ? { key: ArgumentKey<S>; value: ArgumentValue<S, string>; present: ArgumentPresent<S> }
    : never;

type ValuesOf<F extends { key: string; value: unknown; present: boolean }> = {
  [E in F as E['present'] extends true ? E['key'] : never]: E['value'];
} & { [E in F as E['present'] extends true ? never : E['key']]?: E['value'] };

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** What a run function gets from these arguments and options. */
export type Values<A extends readonly ArgumentDecl[], O extends readonly DeclaredOption<string, unknown, boolean>[]> = Simplify<
  ValuesOf<Facts<A[number]> | Facts<O[number]>>
>;

/** 'page-size' → 'pageSize': the key of an option's or argument's value. */
export function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
