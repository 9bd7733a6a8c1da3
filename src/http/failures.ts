// What the user reads when a request fails: one line naming method, path, status and the server's own
// message (escaped: it is text from the network), or what went wrong on the way. Never a stack trace.
import { AuthError, FailureError, NotFoundError, RateLimitError, oneLine, type CliError } from '../base/errors';
import { displayPath } from './url';
import { isLoopbackHost } from '../config/transport';
import { maskKeyIn } from '../base/key-mask';
import { escapeOneLine } from '../output/escape';

// The one text-safety module's, re-exported for the http modules that import it from here.
export { escapeOneLine };

function statusText(status: number): string {
  // Loaded here, not imported: node:http costs ~7 ms of start-up, and only failures and --debug need it.
  return process.getBuiltinModule('node:http').STATUS_CODES[status] ?? '';
}

/** "503 Service Unavailable". */
export function statusLine(status: number): string {
  const text = statusText(status);
  return text ? `${status} ${text}` : String(status);
}

/** "GET /api/v1/bookings?limit=10": how a request is named in every message. */
export function requestName(method: string, url: URL): string {
  return `${method} ${displayPath(url)}`;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);

/** The server's own explanation, from the usual error-body fields. */
function serverMessage(body: Buffer, contentType: string | undefined): string | undefined {
  if (body.length === 0) return undefined;
  const text = body
    .subarray(0, 64 * 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // A short plain-text body is the message; HTML error pages are not worth quoting.
    return /^text\/plain/i.test(contentType ?? '') ? str(text) : undefined;
  }
  if (typeof parsed === 'string') return str(parsed);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const b = parsed as Record<string, unknown>;
  const error = b.error as Record<string, unknown> | string | undefined;
  const nested = typeof error === 'object' && error !== null ? error : undefined;
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | string | undefined) : undefined;
  const firstObject = typeof first === 'object' && first !== null ? first : undefined;
  // OAuth: {"error":"invalid_token","error_description":"The access token expired"}
  const oauth = str(error) && str(b.error_description) ? `${error}: ${b.error_description}` : undefined;
  return (
    str(b.message) ??
    oauth ??
    str(error) ??
    str(nested?.message) ??
    str(nested?.detail) ??
    str(b.detail) ??
    str(b.title) ??
    str(b.error_description) ??
    str(first) ??
    // JSON:API: {"errors":[{"title":"...","detail":"..."}]}
    str(firstObject?.message) ??
    str(firstObject?.detail) ??
    str(firstObject?.title) ??
    fieldErrors(b.errors)
  );
}

/** Rails-style {"errors":{"status":["is invalid"]}} as "status is invalid". */
function fieldErrors(errors: unknown): string | undefined {
  if (typeof errors !== 'object' || errors === null || Array.isArray(errors)) return undefined;
  const parts = Object.entries(errors).flatMap(([field, said]) => {
    const text = str(Array.isArray(said) ? said[0] : said);
    return text ? [`${field} ${text}`] : [];
  });
  return parts.length > 0 ? parts.join('; ') : undefined;
}

export interface StatusFailure {
  method: string;
  url: URL;
  status: number;
  body: Buffer;
  contentType?: string;
  /** Retries already spent on this request. */
  retries: number;
  /** The Retry-After of the answer, in ms, when it had one. */
  retryAfterMs?: number;
  /** Set when the server asked for a longer wait (askedMs) than the client sleeps for (maxMs). */
  tooLongWait?: { askedMs: number; maxMs: number };
  /** The hint for a refused key (401/403); "run: booking login" when not given. */
  authHint?: string;
  /** The API key: a server that quotes it back in its message must not get it printed. */
  apiKey?: string;
}

/** A non-2xx answer as the typed error its status maps to (exit 3, 4, 5 or 1). */
export function errorForStatus(f: StatusFailure): CliError {
  const said = serverMessage(f.body, f.contentType);
  let message = `${requestName(f.method, f.url)}: ${statusLine(f.status)}`;
  // Masked here as well as on the output streams: the line is cut to a length, and a cut could leave
  // a piece of the key shorter than the streams' mask recognises.
  if (said) message += `: ${escapeOneLine(maskKeyIn(said, f.apiKey))}`;
  message += afterRetries(f.retries);
  if (f.status === 401 || f.status === 403) return new AuthError(message, f.authHint ?? 'run: booking login');
  if (f.status === 404) return new NotFoundError(message, doubledPrefixHint(f.url));
  if (f.status === 429) {
    // More retries cannot help when the server's wait is longer than the client sleeps for.
    const hint =
      f.tooLongWait !== undefined
        ? `the server asks to wait ${Math.ceil(f.tooLongWait.askedMs / 1000)}s (booking waits at most ${f.tooLongWait.maxMs / 1000}s); try again after that.`
        : 'try again later, or raise --retries.';
    return new RateLimitError(message, hint, f.retryAfterMs);
  }
  return new FailureError(message);
}

/**
 * A base URL saved with the API's own prefix (`https://host/api/v1`) doubles it in every request
 * (`/api/v1/api/v1/me`): the 404 says which base URL to use instead.
 */
function doubledPrefixHint(url: URL): string | undefined {
  const at = url.pathname.indexOf('/api/v1/api/v1/');
  if (at < 0) return undefined;
  const base = `${url.origin}${url.pathname.slice(0, at)}`;
  return `the base URL ends in /api/v1, which booking adds to every path itself: use ${base} (booking config set baseUrl ${base}).`;
}

/** The error code of a network failure, looking through wrappers (cause, AggregateError). */
export function errorCode(err: unknown): string | undefined {
  const e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined;
  if (typeof e?.code === 'string') return e.code;
  if (e?.cause) return errorCode(e.cause);
  if (Array.isArray(e?.errors) && e.errors.length > 0) return errorCode(e.errors[0]);
  return undefined;
}

const CANNOT_CONNECT = new Set([
  'ECONNREFUSED',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'ENETDOWN',
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
]);
const LOST = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);

/** A network error (no HTTP status) as one line: "GET /api/v1/me: cannot connect to 127.0.0.1:9 (ECONNREFUSED)". */
export function networkFailure(
  method: string,
  url: URL,
  err: unknown,
  retries: number,
  env: Record<string, string | undefined> = process.env,
): FailureError {
  const code = errorCode(err);
  const e = err as { address?: string; port?: number; message?: string };
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const target = e.address ? `${e.address}:${e.port ?? port}` : `${url.hostname}:${port}`;
  let what: string;
  const proxy = proxyFor(url, env);
  if (code && CANNOT_CONNECT.has(code) && proxy && e.port !== undefined && String(e.port) !== port) {
    // EnvHttpProxyAgent went through the proxy (another port than the base URL's): it is what refused.
    what = `cannot connect to the proxy at ${target} (${code}; from ${proxy})`;
  } else if (code && CANNOT_CONNECT.has(code)) what = `cannot connect to ${target} (${code})`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') what = `cannot resolve host ${url.hostname} (${code})`;
  else if (code && LOST.has(code)) what = `connection to ${url.host} lost (${code})`;
  else if (code && /CERT|TLS|SSL/.test(code))
    what = `TLS problem with ${url.host}: ${escapeOneLine(oneLine(e.message ?? ''), 160)} (${code})`;
  else what = `request failed: ${escapeOneLine(oneLine(e.message ?? String(err)), 160)}${code ? ` (${code})` : ''}`;
  const hint =
    code === 'ECONNREFUSED' && isSandboxDefault(url)
      ? 'is `booking sandbox` running? Start it in another terminal.'
      : code && CANNOT_CONNECT.has(code) && !proxy
        ? `is the service at ${url.origin} running? ${baseUrlSource(url, env)}`
        : undefined;
  return new FailureError(`${requestName(method, url)}: ${what}${afterRetries(retries)}`, hint);
}

/** Where to check the base URL: BOOKING_BASE_URL when it names this origin (it wins over the profile's), else the profile. */
function baseUrlSource(url: URL, env: Record<string, string | undefined>): string {
  const fromEnv = env.BOOKING_BASE_URL;
  let same = false;
  try {
    same = fromEnv !== undefined && fromEnv !== '' && new URL(fromEnv).origin === url.origin;
  } catch {}
  return same
    ? "It is the base URL BOOKING_BASE_URL sets (unset it for the profile's, or give --base-url)."
    : 'Check the base URL (booking config get baseUrl, or --base-url).';
}

/** The address `booking sandbox` listens on by default (src/sandbox/defaults.ts: 127.0.0.1:4010). */
function isSandboxDefault(url: URL): boolean {
  return url.protocol === 'http:' && url.port === '4010' && (url.hostname === '127.0.0.1' || url.hostname === 'localhost');
}

/**
 * The proxy variable EnvHttpProxyAgent takes for this URL, when one is set: an https:// URL goes
 * through HTTPS_PROXY, or HTTP_PROXY when that is the only one set (undici's rule, unlike curl's).
 */
function proxyFor(url: URL, env: Record<string, string | undefined>): string | undefined {
  if (isLoopbackHost(url.hostname)) return undefined; // never proxied (client.ts)
  const http = ['http_proxy', 'HTTP_PROXY'];
  const names = url.protocol === 'https:' ? ['https_proxy', 'HTTPS_PROXY', ...http] : http;
  return names.find((name) => env[name]);
}

function afterRetries(n: number): string {
  return n > 0 ? ` (after ${n} ${n === 1 ? 'retry' : 'retries'})` : '';
}

/** "30s", "0.5s": how a --timeout is echoed back. */
export function formatSeconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))}s`;
}
