// What a command may touch: io, env, resolved global options, the abort signal, a clock, and lazy
// getters for config and the HTTP client (loaded only by commands that use them, to keep start fast).
import type { IOStreams } from './output/streams';
import type { GlobalOptions } from './base/globals';
import type { ConfigStore, Connection } from './config/types';
import type { HttpClient } from './http/types';
import type { Sleep } from './http/wait';

export { OUTPUT_FORMATS, type GlobalOptions, type OutputFormat } from './base/globals';
export { hint, outputFormat } from './output/hint';

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
