// The global options after parsing (cli.ts), as every layer sees them: a type of the foundation, so
// that http/ and config/ read --timeout or --allow-http without reaching up to the command context.
export type OutputFormat = 'table' | 'tsv' | 'csv' | 'json' | 'ndjson';
export const OUTPUT_FORMATS: readonly OutputFormat[] = ['table', 'tsv', 'csv', 'json', 'ndjson'];

/** --timeout and --retries when not given: the options' defaults, and readGlobals' when no option was made. */
export const DEFAULT_TIMEOUT_S = 30;
export const DEFAULT_RETRIES = 3;

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
  /**
   * --tz, BOOKING_TZ or the profile's tz: `local` or a checked zone name (src/output/time-zone.ts).
   * Undefined when none is named: tables show local time, tsv and csv times as received.
   */
  tz?: string;
  /** --csv-raw: csv cells as received, without the formula guard. */
  csvRaw?: boolean;
}
