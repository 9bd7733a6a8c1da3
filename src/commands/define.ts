// The one skeleton of a leaf command: its name, arguments, options, examples and run function. The
// commander wiring (arguments merged into the options object, the context built, the exit code
// reported, examples at the end of the help) is written here once instead of in every command.
// The gh habit stays: newCmd(deps, runF) takes a run function, so a test can swap it.
import { Argument, Command, Option } from 'commander';
import type { Context } from '../context';
import type { CommandDeps, RunResult } from './deps';
import { refuseShaping } from '../output/shaping';

export interface CommandSpec<O> {
  name: string;
  aliases?: string[];
  description: string;
  /**
   * commander argument syntax and description: ['<uid>', 'the booking uid'], ['[file]', '…']; or an
   * Argument, for one with choices or a parser. Each lands in the options under its camelCased name.
   */
  arguments?: ([syntax: string, description: string] | Argument)[];
  /** The command's own options, in help order (see option() below). */
  options?: Option[];
  /** The command sends requests to the service (bin/booking.js then readies the HTTP parser early). */
  sendsRequests?: boolean;
  /**
   * What the command prints when it is not records (the default): 'a completion script', 'a path'.
   * Such a command refuses -o, --json, --jq and --fields with exit 2 (src/output/shaping.ts).
   */
  printsText?: string;
  /** Help text between the options and the examples: what the exit status means, say. */
  notes?: string;
  /** Lines shown under "Examples:" at the end of the help, as typed (none: no section). */
  examples: string[];
  /**
   * The run function's options from the parsed flags and arguments, when they differ: a flag named
   * for the user (`--field`) and read by the code under another name, or a boolean flag that is
   * absent rather than false. Without it the run function gets them as parsed.
   */
  input?(parsed: Record<string, unknown>): O;
  run(opts: O, ctx: Context): RunResult;
}

/** A command constructor for the spec: newCmd(deps) for the program, newCmd(deps, runF) for a test. */
export function defineCommand<O>(spec: CommandSpec<O>): (deps: CommandDeps, runF?: CommandSpec<O>['run']) => Command {
  return (deps, runF = spec.run) => {
    const cmd = new Command(spec.name).description(spec.description);
    for (const alias of spec.aliases ?? []) cmd.alias(alias);
    const argNames = (spec.arguments ?? []).map((arg) => {
      const argument = arg instanceof Argument ? arg : new Argument(...arg);
      cmd.addArgument(argument);
      return camelCase(argument.name());
    });
    for (const option of spec.options ?? []) cmd.addOption(option);
    if (spec.sendsRequests) commandFacts.set(cmd, { sendsRequests: true });
    if (spec.printsText) printsText.set(cmd, spec.printsText);
    if (spec.notes) cmd.addHelpText('after', spec.notes);
    if (spec.examples.length > 0) cmd.addHelpText('after', examplesText(spec.examples));
    cmd.action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      if (spec.printsText) refuseShaping(command, spec.printsText);
      const parsed = { ...(params[argNames.length] as object) } as Record<string, unknown>;
      argNames.forEach((name, i) => {
        if (params[i] !== undefined) parsed[name] = params[i];
      });
      const opts = spec.input ? spec.input(parsed) : (parsed as O);
      deps.setExitCode((await runF(opts, deps.context(command))) ?? 0);
    });
    return cmd;
  };
}

/** The commands that print text, not records, and what (CommandSpec.printsText). */
export const printsText = new WeakMap<Command, string>();

/** What the build's dist/command-facts.json records of each command (src/command-facts.ts). */
export const commandFacts = new WeakMap<Command, { sendsRequests: boolean }>();

/** The text a command's help ends with: its examples, one command line each, indented. */
export function examplesText(lines: string[]): string {
  return `\nExamples:\n${lines.map((line) => `  ${line}`).join('\n')}`;
}

/**
 * An option as commander's .option(flags, description, parser, default) would add it, for a spec's
 * options list: option('--port <port>', 'port to listen on', intOption(0, 65_535), 8787).
 */
export function option<T>(flags: string, description: string, parser?: (value: string, previous: T) => T, defaultValue?: T): Option {
  const made = new Option(flags, description);
  if (parser) made.argParser(parser);
  return defaultValue === undefined ? made : made.default(defaultValue);
}

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
