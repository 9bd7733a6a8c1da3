// Builds the commander program: global options (accepted before or after the subcommand), usage
// errors routed through exitOverride/configureOutput, and the commands. Commands are registered from
// light modules; what they need at run time (undici, tables, conf) is imported when they run.
import { Command, Option } from 'commander';
import type { Context, GlobalOptions, OutputFormat } from './context';
import { OUTPUT_FORMATS } from './context';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_S } from './base/globals';
import type { IOStreams } from './output/streams';
import { UsageError } from './base/errors';
import { checkZone } from './output/time-zone';
import { byteSizeOption, intOption, jsonOption, listOption, secondsOption } from './base/options';
import type { CommandDeps } from './commands/deps';
import { namesCommand, registerCommands } from './commands/register';
import { addHelpCommand, commandPath, configureHelpLayout } from './help';

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
  // with an option word, `booking` alone, `help`, an unknown name, and the whole tree get both.
  const plain = deps.argv !== undefined && namesCommand(deps.argv[0]) && !deps.argv.some((arg) => arg.startsWith('-'));
  if (!plain) addGlobalOptions(program);
  configureHelpLayout(program);

  configureUsage(program, io);

  const commandDeps: CommandDeps = {
    context: (cmd) => makeContext(cmd, deps),
    setExitCode: deps.setExitCode,
  };
  await registerCommands(program, commandDeps, deps.argv && commandWords(deps.argv, program));
  if (!plain) addHelpCommand(program);
  // Every subcommand inherits the output routing, exitOverride, help option and help layout (global
  // options named in one line): commander copies them on .command(), but not onto commands built
  // separately and added with addCommand.
  forEachCommand(program, (cmd) => {
    cmd.copyInheritedSettings(cmd.parent!);
    if (cmd.commands.length > 0) helpOnBareGroup(cmd);
    else usageOnMissingArgument(cmd);
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
    .option('--tz <zone>', 'time zone for times in table, tsv and csv: local, UTC or an IANA name (env: BOOKING_TZ; config: tz)')
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

function profileName(value: string): string {
  // Empty, as in `BOOKING_PROFILE= booking ...` or `--profile "$UNSET"`, is no choice: like an empty
  // BOOKING_BASE_URL or BOOKING_API_KEY, it leaves the default.
  if (value === '') return 'default';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(value)) {
    throw new UsageError(`invalid profile name "${value}": use letters, digits, '.', '_' or '-'.`);
  }
  return value;
}

/** Global options as typed values, from the command's own and inherited options. */
function readGlobals(cmd: Command, env: Record<string, string | undefined>): GlobalOptions {
  const o = cmd.optsWithGlobals() as Record<string, unknown>;
  let output = o.output as OutputFormat | undefined;
  const jq = o.jq as string | undefined;
  if (o.json || jq !== undefined) {
    const flag = o.json ? '--json' : '--jq';
    if (output && output !== 'json') throw new UsageError(`${flag} conflicts with --output ${output}.`);
    output = 'json';
  }
  // The environment is read here rather than by commander's Option.env(), which reads process.env:
  // main() is given its env (tests run it in-process with their own).
  const envProfile = env.BOOKING_PROFILE;
  if (jq !== undefined && jq.trim() === '') throw new UsageError('--jq needs an expression, such as .[].uid.');
  // A flag that means nothing for the format in force is refused, never ignored.
  if (o.csvRaw && output !== 'csv') throw new UsageError('--csv-raw goes with -o csv (it turns off the formula guard of csv cells).');
  let fields = o.fields as string[] | undefined;
  if (Array.isArray(o.json)) {
    if (fields) throw new UsageError('--json FIELDS and --fields both name fields: use one of them.');
    fields = o.json;
  }
  return {
    profile: (o.profile as string | undefined) ?? (envProfile === undefined ? 'default' : profileName(envProfile)),
    baseUrl: (o.baseUrl as string | undefined) ?? env.BOOKING_BASE_URL,
    output,
    fields,
    jq,
    noColor: o.color === false,
    timeoutMs: Math.round(((o.timeout as number | undefined) ?? DEFAULT_TIMEOUT_S) * 1000),
    retries: (o.retries as number | undefined) ?? DEFAULT_RETRIES,
    debug: Boolean(o.debug) || env.BOOKING_DEBUG === '1' || env.BOOKING_DEBUG === 'true',
    quiet: Boolean(o.quiet),
    allowHttp: Boolean(o.allowHttp),
    maxResponseBytes: o.maxResponseBytes as number | undefined,
    noPager: o.pager === false,
    tz: zoneOption(o.tz as string | undefined, env.BOOKING_TZ),
    csvRaw: Boolean(o.csvRaw),
  };
}

/** --tz over BOOKING_TZ (an empty one is unset), checked: an unknown zone is exit 2. */
function zoneOption(flag: string | undefined, env: string | undefined): string | undefined {
  if (flag !== undefined) return checkZone(flag, '--tz');
  return env === undefined || env === '' ? undefined : checkZone(env, 'BOOKING_TZ');
}

/** The same streams (the same door) with colour set; stdin stays unmade until used. */
function withColor(io: IOStreams, color: boolean): IOStreams {
  return Object.defineProperties({} as IOStreams, { ...Object.getOwnPropertyDescriptors(io), color: { value: color, enumerable: true } });
}

function makeContext(cmd: Command, deps: ProgramDeps): Context {
  const globals = readGlobals(cmd, deps.env);
  const io = deps.io.color && globals.noColor ? withColor(deps.io, false) : deps.io;
  let configP: ReturnType<Context['config']> | undefined;
  let httpP: ReturnType<Context['http']> | undefined;
  let connP: ReturnType<Context['connection']> | undefined;
  const ctx: Context = {
    io,
    env: deps.env,
    globals,
    signal: deps.signal,
    now: () => new Date(),
    config: () => (configP ??= import('./config/store').then((m) => m.openConfig(deps.env))),
    connection: () =>
      (connP ??= (async () => {
        const store = await ctx.config();
        const { resolveConnection } = await import('./config/resolve');
        const connection = await resolveConnection(store, globals, deps.env, deps.signal);
        // The profile's tz, when neither --tz nor BOOKING_TZ named one: read with the profile, before any output.
        globals.tz ??= connection.tz;
        return connection;
      })()),
    http: () =>
      (httpP ??= (async () => {
        const connection = await ctx.connection();
        const { preconnect } = await import('./http/preconnect');
        const early = await preconnect(connection.baseUrl, globals.allowHttp, deps.env);
        const { createHttpClient } = await import('./http/client');
        return createHttpClient({ connection, globals, io, signal: deps.signal, early, env: deps.env });
      })()),
  };
  return ctx;
}
