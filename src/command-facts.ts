// What bin/booking.js must know of the command tree before it loads the program: which global options
// take a value (their values are not command words), which commands send requests (their runs
// ready the HTTP parser early), which run short (no baseline compiler) and which have a bundle of
// their own. The build writes it to
// dist/command-facts.json from the bundle it has just made (scripts/command-facts.mjs), so that
// adding a command needs no edit in bin/.
import type { Command } from 'commander';
import { buildProgram } from './cli';
import { testIO } from './output/io';
import { commandFacts, type CommandFact } from './commands/define';
import { topLevelNames } from './commands/register';

export interface CommandFacts {
  /** Global options that take a value, short and long: ["--profile", "-o", "--output", …]. */
  valueOptions: string[];
  /**
   * The commands that send requests, as their first one or two words may be typed, aliases
   * included: ["login", …, "bookings list", "bookings ls", …].
   */
  sendsRequests: string[];
  /** The commands whose runs are one request and one record, spelled as sendsRequests: ["bookings get", …]. */
  shortRuns: string[];
  /**
   * The commands that have a bundle of their own (scripts/bundle/command-bundles.mjs), as their
   * words are typed: every command of a group, and every top-level command of none, whose name
   * bin/booking.js reads as a command word: ["login", …, "bookings get", …, "version"].
   */
  bundles: string[];
}

/** The facts of the program with every command, built with inert I/O: nothing runs. */
export function programFacts(program: Command): CommandFacts {
  // Not --json [fields]: its optional word is a command unless it is a field list with a comma
  // (src/base/json-flag.ts), which the bin's word pattern already stops at.
  const valueOptions = program.options
    .filter((o) => o.required)
    .flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined));
  const sendsRequests = typed(program, 'sendsRequests');
  const shortRuns = typed(program, 'shortRun');
  // bin/booking.js's pattern of a command word: the hidden __complete is not one (it runs the whole program).
  const word = /^[a-z][a-z0-9-]{0,31}$/;
  const bundles: string[] = [];
  for (const name of topLevelNames().filter((n) => word.test(n))) {
    const top = program.commands.find((c) => c.name() === name);
    const subs = top?.commands.map((c) => c.name()).filter((n) => word.test(n)) ?? [];
    bundles.push(...(subs.length > 0 ? subs.map((sub) => `${name} ${sub}`) : [name]));
  }
  return { valueOptions, sendsRequests, shortRuns, bundles };
}

/** The commands of one or two words that have `fact`, as they may be typed (aliases included). */
function typed(program: Command, fact: keyof CommandFact): string[] {
  const found: string[] = [];
  const hasFact = (cmd: Command) => commandFacts.get(cmd)?.[fact] === true;
  for (const top of program.commands) {
    if (hasFact(top)) found.push(...spellings(top));
    for (const sub of top.commands) {
      if (hasFact(sub)) for (const first of spellings(top)) found.push(...spellings(sub).map((second) => `${first} ${second}`));
    }
  }
  return found;
}

function spellings(cmd: Command): string[] {
  return [cmd.name(), ...cmd.aliases()];
}

/** The program with every command, built with inert I/O (for the build: facts, man pages). */
export function wholeProgram(): Promise<Command> {
  return buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
}
