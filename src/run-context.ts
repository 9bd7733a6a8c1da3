// The Context a command runs with (src/context.ts), built from its parsed options: the global options
// read and checked (readGlobals), and the config, connection and HTTP client loaded when first asked
// for. Shared by commander's runs (src/cli.ts) and a plain line's (src/commands/plain.ts), so neither
// loads what the other needs.
import type { Context, GlobalOptions, OutputFormat } from './context';
import { DEFAULT_RETRIES, DEFAULT_TIMEOUT_S } from './base/globals';
import type { IOStreams } from './output/streams';
import { UsageError } from './base/errors';
import { checkZone } from './output/time-zone';
import { keyringNote } from './output/waiting';

/** What a run's Context is made with. */
export interface RunDeps {
  io: IOStreams;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

/** --profile's and BOOKING_PROFILE's value, checked. */
export function profileName(value: string): string {
  // Empty, as in `BOOKING_PROFILE= booking ...` or `--profile "$UNSET"`, is no choice: like an empty
  // BOOKING_BASE_URL or BOOKING_API_KEY, it leaves the default.
  if (value === '') return 'default';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(value)) {
    throw new UsageError(`invalid profile name "${value}": use letters, digits, '.', '_' or '-'.`);
  }
  return value;
}

/** Global options as typed values, from the command's own and inherited options. */
function readGlobals(o: Record<string, unknown>, env: Record<string, string | undefined>, printsRecords: boolean): GlobalOptions {
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
    // A command that prints text shows no times: a bad BOOKING_TZ is no reason to refuse it.
    tz: zoneOption(o.tz as string | undefined, printsRecords ? env.BOOKING_TZ : undefined),
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

/**
 * The Context of a run, from the command's options with the global ones (commander's optsWithGlobals(),
 * or a plain line's defaults: src/commands/plain.ts).
 */
export function runContext(options: Record<string, unknown>, deps: RunDeps, printsRecords = true): Context {
  const globals = readGlobals(options, deps.env, printsRecords);
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
        const connection = await resolveConnection(store, globals, deps.env, deps.signal, keyringNote({ io, globals, env: deps.env }));
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
