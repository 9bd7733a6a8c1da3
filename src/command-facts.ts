// What bin/booking.js must know of the command tree before it loads the program: which global options
// take a value (their values are not command words) and which commands send requests (their runs
// ready the HTTP parser early). The build writes it to dist/command-facts.json from the bundle it
// has just made (scripts/command-facts.mjs), so that adding a command needs no edit in bin/.
import type { Command } from 'commander';
import { buildProgram } from './cli';
import { testIO } from './io';
import { commandFacts } from './commands/define';

export interface CommandFacts {
  /** Global options that take a value, short and long: ["--profile", "-o", "--output", …]. */
  valueOptions: string[];
  /**
   * The commands that send requests, as their first one or two words may be typed, aliases
   * included: ["login", …, "bookings list", "bookings ls", …].
   */
  sendsRequests: string[];
}

/** The facts of the program with every command, built with inert I/O: nothing runs. */
export function programFacts(program: Command): CommandFacts {
  // Not --json [fields]: its optional word is a command unless it is a field list with a comma
  // (src/json-flag.ts), which the bin's word pattern already stops at.
  const valueOptions = program.options
    .filter((o) => o.required)
    .flatMap((o) => [o.short, o.long].filter((f): f is string => f !== undefined));
  const sendsRequests: string[] = [];
  for (const top of program.commands) {
    if (commandFacts.get(top)?.sendsRequests) sendsRequests.push(...spellings(top));
    for (const sub of top.commands) {
      if (commandFacts.get(sub)?.sendsRequests)
        for (const first of spellings(top)) sendsRequests.push(...spellings(sub).map((second) => `${first} ${second}`));
    }
  }
  return { valueOptions, sendsRequests };
}

function spellings(cmd: Command): string[] {
  return [cmd.name(), ...cmd.aliases()];
}

/** The program with every command, built with inert I/O (for the build: facts, man pages). */
export function wholeProgram(): Promise<Command> {
  return buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
}
