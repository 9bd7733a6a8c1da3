// Builds the commander program: global options (accepted before or after the subcommand), usage
// errors routed through exitOverride/configureOutput, and the commands. Commands are registered from
// light modules; what they need at run time (undici, tables, conf) is imported when they run.
import { Command, Option } from 'commander';
import { OUTPUT_FORMATS } from './context';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_S } from './base/globals';
import type { IOStreams } from './output/streams';
import { byteSizeOption, intOption, jsonOption, listOption, secondsOption } from './base/options';
import type { CommandDeps } from './commands/deps';
import { namesCommand, TREE } from './commands/register';
import { registerTree } from './commands/build';
import { plainWords } from './commands/plain';
import { profileName, runContext } from './run-context';
import { addHelpCommand, commandPath, configureHelpLayout, hasHelpCommand } from './help';

declare const __VERSION__: string;
const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

export interface ProgramDeps {
  io: IOStreams;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
  setExitCode(code: number): void;
  /** The run's arguments, when known: only the command they name is built (commandWords). */
  argv?: readonly string[];
}

export async function buildProgram(deps: ProgramDeps): Promise<Command> {
  const { io } = deps;
  const program = new Command('booking');
  program
    .description('Command-line client for the booking service: bookings, event types, and signed webhooks.')
    .helpOption('-h, --help', 'show help');
  // A line of plain words naming a command (`booking bookings get bk_1`) has no option to read: it is
  // parsed without the global options (readGlobals gives their defaults) and without the help command,
  // whose set-up is a measurable part of a short command's start-up (docs/performance.md). Any line
  // with an option word, `booking` alone, `help` (first or, for a group's, later), an unknown name,
  // and the whole tree get both.
  const plain = deps.argv !== undefined && namesCommand(deps.argv[0]) && plainWords(deps.argv) && !deps.argv.includes('help');
  if (!plain) addGlobalOptions(program);
  configureHelpLayout(program);

  configureUsage(program, io);

  const commandDeps: CommandDeps = {
    context: (cmd, printsRecords) => runContext(cmd.optsWithGlobals(), deps, printsRecords),
    setExitCode: deps.setExitCode,
  };
  await registerTree(program, TREE, commandDeps, deps.argv && commandWords(deps.argv, program));
  if (!plain) addHelpCommand(program);
  // Every subcommand inherits the output routing, exitOverride, help option and help layout (global
  // options named in one line): commander copies them on .command(), but not onto commands built
  // separately and added with addCommand.
  forEachCommand(program, (cmd) => {
    cmd.copyInheritedSettings(cmd.parent!);
    if (cmd.commands.length > 0) {
      helpOnBareGroup(cmd);
      // A hidden group has no help command (build.ts); a plain line has none at all.
      if (!plain && hasHelpCommand(cmd)) addHelpCommand(cmd);
    } else usageOnMissingArgument(cmd);
  });
  for (const cmd of [program, ...program.commands]) if (cmd.commands.length > 0) optionsOfLaterCommand(cmd);
  return program;
}

/** The options of every command, given before or after the command's words; readGlobals reads them. */
function addGlobalOptions(program: Command): void {
  program
    .version(VERSION, '-V, --version', 'print the version')
    .addOption(new Option('--profile <name>', 'config profile (env: BOOKING_PROFILE; default: "default")').argParser(profileName))
    .addOption(new Option('--base-url <url>', "override the profile's base URL (env: BOOKING_BASE_URL)"))
    .addOption(new Option('-o, --output <format>', 'output format').choices(OUTPUT_FORMATS as string[]))
    .option('--json [fields]', 'same as -o json; with a comma-separated list, only those fields (as --fields)', jsonOption)
    .option('--jq <expression>', "filter the JSON output with jq's language (strings printed raw); implies --json")
    .option('--fields <list>', 'columns for table/tsv, projection for json/ndjson (dot paths, comma-separated)', listOption)
    .option('--no-color', 'turn colour off (also NO_COLOR, TERM=dumb)')
    .option('--timeout <seconds>', 'per-request timeout in seconds', secondsOption(0, 86_400), DEFAULT_TIMEOUT_S)
    .option('--retries <n>', 'retries of a GET on 429, 502, 503, 504 and lost connections', intOption(0, 20), DEFAULT_RETRIES)
    .option('--debug', 'one line per request and response on stderr (key redacted; also BOOKING_DEBUG=1)')
    .option('-q, --quiet', 'no progress or hints on stderr')
    .option('--allow-http', 'permit http:// to a non-loopback host (the key would travel in clear)')
    .option('--max-response-bytes <size>', 'refuse a response body larger than this (bytes, or K/M/G)', byteSizeOption, 64 * 2 ** 20)
    .option('--no-pager', 'never page the output on a terminal (also BOOKING_PAGER=)')
    .option(
      '--tz <zone>',
      'time zone for times in table, tsv and csv: local, UTC, an IANA name or an offset (+05:30) (env: BOOKING_TZ; config: tz)',
    )
    .option('--csv-raw', "csv cells as received: no leading ' on cells starting with = + - @ (the formula guard)");
}

/**
 * The first two command words of argv (`bookings get` in `booking -o json bookings get bk_1`), global
 * options and their values skipped: a run builds only the command they name (src/commands/tree.ts).
 */
function commandWords(argv: readonly string[], program: Command): string[] {
  const takesValue = new Set(program.options.filter((o) => o.required).flatMap((o) => [o.short, o.long]));
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (takesValue.has(arg)) i++;
      continue;
    }
    words.push(arg);
  }
  return words;
}

/**
 * An unknown option given before the command (`booking --limt 3 bookings list`): commander looks
 * only at the options known at that point (the global ones) for a suggestion. The command named later
 * in the line knows the option: its suggestion is given (`did you mean '--limit'?`), and an option of
 * that command given before it is told to go after it.
 */
/** commander's hook for an unknown option, untyped in its .d.ts. */
type UnknownOptionHook = { unknownOption(flag: string): void };

function optionsOfLaterCommand(group: Command): void {
  const hooked = group as unknown as UnknownOptionHook;
  const own = hooked.unknownOption.bind(group);
  hooked.unknownOption = (flag: string) => {
    let root = group;
    while (root.parent) root = root.parent;
    const args = (root as unknown as { rawArgs?: string[] }).rawArgs ?? [];
    let leaf = root;
    for (const word of args) {
      const sub = leaf.commands.find((c) => c.name() === word || c.aliases().includes(word));
      if (sub) leaf = sub;
    }
    if (leaf.commands.length > 0) return own(flag);
    const name = flag.split('=')[0];
    if (leaf.options.some((o) => o.long === name || o.short === name)) {
      const path = commandPath(leaf);
      group.error(`error: option '${name}' belongs to '${path}': put it after the command (booking ${path} ${name} …)`, {
        code: 'commander.unknownOption',
      });
    }
    return (leaf as unknown as UnknownOptionHook).unknownOption(flag);
  };
}

/**
 * `booking bookings` alone shows that group's help on stdout and exits 0, as `gh pr` does; commander
 * would print it on stderr as an error. Only when no word follows: an unknown subcommand stays a
 * usage error with a suggestion.
 */
function helpOnBareGroup(group: Command): void {
  const help = group.help.bind(group) as (context?: { error: boolean }) => never;
  group.help = ((context?: { error: boolean }) => help(context?.error && group.args.length === 0 ? undefined : context)) as Command['help'];
}

/** commander's hook for a missing argument, untyped in its .d.ts. */
type MissingArgumentHook = { missingArgument(name: string): void };

/**
 * `booking bookings get` with no uid: the error, then the command's usage line, as git and gh give
 * it, so the next try is right without opening the help.
 */
function usageOnMissingArgument(cmd: Command): void {
  (cmd as unknown as MissingArgumentHook).missingArgument = (name: string) => {
    const usage = `usage: booking ${commandPath(cmd)} ${cmd.usage()}`;
    cmd.error(`error: missing required argument '${name}'\n${usage}`, { code: 'commander.missingArgument' });
  };
}

function configureUsage(cmd: Command, io: IOStreams): void {
  cmd.exitOverride();
  cmd.configureOutput({
    writeOut: (s) => void io.stdout.write(s),
    writeErr: (s) => void io.stderr.write(s),
    outputError: (s, write) => write(oneLineSuggestion(s)),
  });
}

/**
 * commander puts its suggestion on a second line, `(Did you mean bookings?)`; `booking help nope`
 * puts it on the error's own line. One way for both: `unknown command 'bookngs' (did you mean 'bookings'?)`.
 */
function oneLineSuggestion(message: string): string {
  return message.replace(/\n\(Did you mean (one of )?(.+)\?\)\n$/, (_, oneOf: string | undefined, names: string) => {
    const quoted = names
      .split(', ')
      .map((n) => `'${n}'`)
      .join(', ');
    return ` (did you mean ${oneOf ?? ''}${quoted}?)\n`;
  });
}

function forEachCommand(cmd: Command, fn: (c: Command) => void): void {
  for (const sub of cmd.commands) {
    fn(sub);
    forEachCommand(sub, fn);
  }
}
