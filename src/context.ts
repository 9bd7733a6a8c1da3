// What a command may touch: io, env, resolved global options, the abort signal, a clock, and lazy
// getters for config and the HTTP client (loaded only by commands that use them, to keep start fast).
import type { IOStreams } from './io';
import { escapeControl } from './output/escape';
import { clearProgressLine } from './output/progress';
import type { ConfigStore, Connection } from './config/types';
import type { HttpClient } from './http/types';
import type { Sleep } from './http/retry';

export type OutputFormat = 'table' | 'tsv' | 'json' | 'ndjson';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'tsv', 'json', 'ndjson'];

/** Global options after parsing and env defaults (see cli.ts). */
export interface GlobalOptions {
  profile: string;
  baseUrl?: string;
  /** Explicit -o / --json; undefined means "table on a terminal, tsv otherwise". */
  output?: OutputFormat;
  fields?: string[];
  /** --jq: a jq expression the JSON output goes through (output is then json). */
  jq?: string;
  noColor: boolean;
  /** Per-request timeout, milliseconds. */
  timeoutMs: number;
  retries: number;
  debug: boolean;
  quiet: boolean;
  allowHttp: boolean;
  /** --max-response-bytes: a larger body is an error (default 64 MiB when not set). */
  maxResponseBytes?: number;
  /** --no-pager: never page a terminal's output. */
  noPager?: boolean;
}

export interface Context {
  io: IOStreams;
  env: Record<string, string | undefined>;
  globals: GlobalOptions;
  /** Aborted on SIGINT/SIGTERM. */
  signal: AbortSignal;
  now(): Date;
  /** Waits between repeated work (bookings watch's polls); Ctrl-C cuts it short. Tests inject one with their clock. */
  sleep?: Sleep;
  config(): Promise<ConfigStore>;
  /**
   * Profile + env + flags resolved to base URL and key; AuthError (exit 3) when either is missing,
   * UsageError (exit 2) for a bad base URL or plain http:// to a non-loopback host without --allow-http.
   */
  connection(): Promise<Connection>;
  /** The HTTP client for the resolved profile (base URL + key); throws AuthError when either is missing. */
  http(): Promise<HttpClient>;
}

/** The output format in force: explicit, else table on a terminal and tsv in a pipe. */
export function outputFormat(ctx: Pick<Context, 'io' | 'globals'>): OutputFormat {
  return ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'tsv');
}

/** A hint or progress line on stderr, unless --quiet; control and bidi characters shown escaped. */
export function hint(ctx: Pick<Context, 'io' | 'globals'>, line: string): void {
  if (ctx.globals.quiet) return;
  // A note in the middle of a listing (columns left out) starts on a line of its own, not after
  // the "Fetching…" text.
  clearProgressLine(ctx);
  ctx.io.stderr.write(`${escapeControl(line)}\n`);
}
