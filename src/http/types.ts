// The HTTP client every API command uses. Implementations live in src/http/client.ts (undici).
import type { RawItems } from '../output/json-raw';

export interface RequestOptions {
  /** Query parameters; undefined values are left out. */
  query?: Record<string, string | number | undefined>;
  signal?: AbortSignal;
  /** Request headers beside the client's own (conditional requests: If-None-Match, If-Modified-Since). */
  headers?: Record<string, string>;
  /** A 304 Not Modified is an answer (with an empty body), not an error: for a conditional request. */
  notModified?: boolean;
  /** A lower ceiling than --max-response-bytes for this request, and the option that sets it (watch's --max-page). */
  maxBytes?: { bytes: number; option: string };
}

export interface HttpResponse {
  status: number;
  /** The URL that answered (after any same-origin redirect). */
  url: URL;
  /** Lower-cased header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
  text(): string;
  /** Lossless JSON parse of the body; a FailureError naming method and path when it is not JSON. */
  json(): unknown;
  /** json(), parsed with turns of the event loop between its steps when the body is big (Ctrl-C is seen). */
  jsonInTurns?(signal?: AbortSignal): Promise<unknown>;
  /** After json(): `items` (an array in the parsed body) as the server sent them (src/output/json-raw.ts). */
  rawItems?(items: unknown[]): RawItems | undefined;
}

export interface HttpClient {
  readonly baseUrl: URL;
  /**
   * GET a path under the base URL ("/api/v1/me", joined keeping any path prefix of the base URL) or an
   * absolute URL on the base URL's origin (next-page links). Resolves only for 2xx; anything else is a
   * typed CliError (401/403 AuthError, 404 NotFoundError, 429 RateLimitError after retries, other
   * FailureError) whose message names method, path, status and the server's message.
   */
  get(pathOrUrl: string, opts?: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}
