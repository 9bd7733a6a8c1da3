// The one skeleton of a leaf command: its name, arguments, options, examples and run function. The
// commander wiring (arguments merged into the options object, the context built, the exit code
// reported, examples at the end of the help) is written here once instead of in every command.
// The gh habit stays: newCmd(deps, runF) takes a run function, so a test can swap it.
import { Command, type Option } from 'commander';
import type { Context } from '../context';
import type { CommandDeps, RunResult } from './deps';
import { examples } from '../help';

export interface CommandSpec<O> {
  name: string;
  aliases?: string[];
  description: string;
  /** commander argument syntax and description: ['<uid>', 'the booking uid'], ['[file]', '…']. */
  arguments?: [syntax: string, description: string][];
  /** The command's own options, in help order. */
  options?: Option[];
  /** The command sends requests to the service (bin/booking.js then readies the HTTP parser early). */
  sendsRequests?: boolean;
  /** Help text between the options and the examples: what the exit status means, say. */
  notes?: string;
  /** Lines shown under "Examples:" at the end of the help, as help.ts's examples() renders them. */
  examples: string[];
  run(opts: O, ctx: Context): RunResult;
}

/** A command constructor for the spec: newCmd(deps) for the program, newCmd(deps, runF) for a test. */
export function defineCommand<O>(spec: CommandSpec<O>): (deps: CommandDeps, runF?: CommandSpec<O>['run']) => Command {
  return (deps, runF = spec.run) => {
    const cmd = new Command(spec.name).description(spec.description);
    for (const alias of spec.aliases ?? []) cmd.alias(alias);
    const argNames = (spec.arguments ?? []).map(([syntax, description]) => {
      cmd.argument(syntax, description);
      return camelCase(syntax.replace(/[<>[\].]/g, ''));
    });
    for (const option of spec.options ?? []) cmd.addOption(option);
    if (spec.sendsRequests) commandFacts.set(cmd, { sendsRequests: true });
    if (spec.notes) cmd.addHelpText('after', spec.notes);
    cmd.addHelpText('after', examples(...spec.examples));
    cmd.action(async (...params: unknown[]) => {
      const command = params[params.length - 1] as Command;
      const opts = { ...(params[argNames.length] as object) } as Record<string, unknown>;
      argNames.forEach((name, i) => {
        if (params[i] !== undefined) opts[name] = params[i];
      });
      deps.setExitCode((await runF(opts as O, deps.context(command))) ?? 0);
    });
    return cmd;
  };
}

/** What the build's command-facts file records of each command (see scripts/command-facts.mjs). */
export const commandFacts = new WeakMap<Command, { sendsRequests: boolean }>();

function camelCase(name: string): string {
  return name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}
