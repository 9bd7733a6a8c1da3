// The shaping flags (-o, --json [FIELDS], --jq, --fields) mean something only to a command that prints
// records. A command that prints a script, a path or one value refuses them (exit 2, naming the flag),
// so that no command accepts a flag and ignores it (`booking completion bash --jq .` is a mistake).
import type { Command } from 'commander';
import { UsageError } from '../base/errors';
import type { GlobalOptions } from '../base/globals';

/** Throws a UsageError naming the first shaping flag given to `cmd` (or before it). */
export function refuseShaping(cmd: Command, what: string): void {
  const path: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) path.unshift(c.name());
  refuseShapingOf(cmd.optsWithGlobals(), path, what);
}

/** The same from the command's options (with the global ones) and its words (`['completion']`). */
export function refuseShapingOf(o: Record<string, unknown>, path: readonly string[], what: string): void {
  const given =
    o.jq !== undefined
      ? '--jq'
      : o.json !== undefined
        ? '--json'
        : o.fields !== undefined
          ? '--fields'
          : o.output !== undefined
            ? '-o'
            : undefined;
  if (given === undefined) return;
  throw new UsageError(`${given} does not apply to 'booking ${path.join(' ')}': it prints ${what}, not records.`);
}

/**
 * The same refusal for one mode of a command that otherwise prints records (`webhook send
 * --print-curl` prints a shell command), from the parsed global options.
 */
export function refuseShapingIn(globals: Pick<GlobalOptions, 'jq' | 'fields' | 'output'>, mode: string, what: string): void {
  const given =
    globals.jq !== undefined ? '--jq' : globals.fields !== undefined ? '--fields' : globals.output !== undefined ? '-o/--json' : undefined;
  if (given !== undefined) throw new UsageError(`${given} does not apply to ${mode}: it prints ${what}, not records.`);
}
