// The undici HttpClient: one keep-alive connection per run (through EnvHttpProxyAgent when a proxy is
// set, so HTTPS_PROXY / HTTP_PROXY / NO_PROXY apply, except to a loopback base URL), the key sent only
// to the base URL's origin, same-origin redirects followed here, and GETs retried on
// 429/502/503/504 and lost connections (policy in retry.ts).
// This is the only module that imports undici; cli.ts loads it lazily.
import type { Dispatcher } from 'undici';
import type { HttpClient, HttpResponse, RequestOptions } from './types';
import type { Connection } from '../config/types';
import type { GlobalOptions } from '../base/globals';
import type { IOStreams } from '../output/streams';
import { CliError, FailureError, InterruptedError } from '../base/errors';
import { assertSameOrigin, joinUrl, showUrl, withQuery } from './url';
import { assertTransportAllowed, isLoopbackHost } from '../config/transport';
import { errorCode, errorForStatus, formatSeconds, networkFailure, requestName, statusLine } from './failures';
import { MAX_RETRY_AFTER_MS, RETRY_STATUSES, backoffMs, isRetryableError, retryAfterMs } from './retry';
import { pause, sleep, type Sleep } from './wait';
import { createDebugLog } from './debug-log';
import { makeResponse } from './response';
import { refusedKeyHint } from '../config/resolve';
import type { EarlyConnection } from './preconnect';
import { NodeDispatcher } from './node-dispatcher';
import { DEFAULT_MAX_RESPONSE_BYTES, requestWhole } from './body';
import { formatBytes } from '../base/words';
import { retryNote, waitingNote } from '../output/waiting';

declare const __VERSION__: string;
const USER_AGENT = `booking-cli/${typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev'}`;

export interface ClientOptions {
  connection: Connection;
  globals: GlobalOptions;
  io: IOStreams;
  signal: AbortSignal;
  /** Tests inject undici's MockAgent here; otherwise an EnvHttpProxyAgent pool is made. */
  dispatcher?: Dispatcher;
  /** First backoff step in ms (default 500); tests make it tiny. */
  retryBaseMs?: number;
  /** How the client waits between retries; tests record the delays instead of sleeping. */
  sleep?: Sleep;
  /** A connection to the base URL opened while this module loaded (preconnect.ts). */
  early?: EarlyConnection;
  /** Where the proxy variables are read (the run's env, not necessarily process.env). */
  env?: Record<string, string | undefined>;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 5;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

interface Exchange {
  url: URL;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

export function createHttpClient(opts: ClientOptions): HttpClient {
  const { connection, globals } = opts;
  const base = new URL(connection.baseUrl.href);
  assertTransportAllowed(base, globals.allowHttp);
  // A loopback base URL never goes through a proxy: plain http:// is allowed to it only because the
  // traffic never leaves the machine. Otherwise the variables are read here from the run's env, as
  // undici would read them from process.env.
  const env = opts.env ?? process.env;
  const proxies = isLoopbackHost(base.hostname)
    ? { httpProxy: '', httpsProxy: '' }
    : {
        httpProxy: env.http_proxy ?? env.HTTP_PROXY ?? '',
        httpsProxy: env.https_proxy ?? env.HTTPS_PROXY ?? '',
        noProxy: env.no_proxy ?? env.NO_PROXY ?? '',
      };
  // Without a proxy, every request goes to the base URL's origin (checked before each): one keep-alive
  // connection through node's http(s) (node-dispatcher.ts). With one, undici's EnvHttpProxyAgent picks
  // the route of each request (NO_PROXY), one connection per origin; undici is loaded only then.
  // maxHeaderSize: node's default is 16 KiB.
  const viaProxy = Boolean(proxies.httpProxy || proxies.httpsProxy);
  const maxHeaderSize = 64 * 1024;
  const ownPool: Promise<Dispatcher> | undefined = opts.dispatcher
    ? undefined
    : viaProxy
      ? // undici is CommonJS: its exports are the default export, in node and in the build alike.
        import('undici').then((undici) => {
          const { EnvHttpProxyAgent } = undici.default as unknown as typeof undici;
          return new EnvHttpProxyAgent({ connections: 1, keepAliveTimeout: 10_000, maxHeaderSize, ...proxies });
        })
      : Promise.resolve(new NodeDispatcher(base, { maxHeaderSize, early: opts.early }) as unknown as Dispatcher);
  const dispatcher: Promise<Dispatcher> = opts.dispatcher ? Promise.resolve(opts.dispatcher) : ownPool!;
  const log = createDebugLog(opts.io.stderr, globals.debug);
  const wait = opts.sleep ?? sleep;
  const baseMs = opts.retryBaseMs ?? 500;
  const timeoutMs = globals.timeoutMs;
  const maxBytes = globals.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const authHint = refusedKeyHint(connection);
  // From here on the server may echo the key back; no output may show it.
  opts.io.maskSecret?.(connection.apiKey);

  /** One request and its whole body, within the timeout. `asked` names the request in messages. */
  async function exchange(url: URL, asked: URL, signal: AbortSignal, ro: RequestOptions): Promise<Exchange> {
    const max = ro.maxBytes?.bytes ?? maxBytes;
    const option = ro.maxBytes?.option ?? '--max-response-bytes';
    // One controller per request, aborted by the run's signal or the timeout. Not AbortSignal.any: in
    // node 20 each call registers its signals for garbage-collection tracking, a cost a listing of
    // thousands of pages pays on every page.
    const request = new AbortController();
    const onAbort = () => request.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) onAbort();
    let timedOut = false;
    const timer =
      timeoutMs > 0
        ? setTimeout(() => {
            timedOut = true;
            request.abort();
          }, timeoutMs)
        : undefined;
    const started = Date.now();
    log.request('GET', url);
    // On a terminal, a second without the whole answer says so (src/output/waiting.ts).
    const waited = waitingNote({ io: opts.io, globals, env }, requestName('GET', asked), url.host);
    try {
      const res = await requestWhole(
        await dispatcher,
        {
          origin: url.origin,
          path: url.pathname + url.search,
          method: 'GET',
          headers: headersFor(url, ro.headers),
          headersTimeout: timeoutMs,
          bodyTimeout: timeoutMs,
        },
        max,
        () => `${requestName('GET', asked)}: the response is larger than ${option} (${formatBytes(max)}); not read.`,
        request.signal,
        // Cleared before anything else is written about the answer (--debug's line): never after the note.
      ).finally(waited);
      log.response(res.status, res.body.length, Date.now() - started, REDIRECT_STATUSES.has(res.status) ? res.headers.location : undefined);
      return { url, ...res };
    } catch (err) {
      if (signal.aborted) throw new InterruptedError();
      if (timedOut || TIMEOUT_CODES.has(errorCode(err) ?? '')) {
        log.failure('timeout', Date.now() - started);
        throw new FailureError(
          `${requestName('GET', asked)}: no response within ${formatSeconds(timeoutMs)}`,
          'raise --timeout if the server is just slow.',
        );
      }
      log.failure(errorCode(err) ?? 'error', Date.now() - started);
      throw err;
    } finally {
      waited();
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
    }
  }

  function headersFor(url: URL, extra?: Record<string, string>): Record<string, string> {
    const headers: Record<string, string> = { ...extra, accept: 'application/json', 'user-agent': USER_AGENT };
    // Checked before every request already; this keeps the key off any other origin regardless.
    if (url.origin === base.origin) headers.authorization = `Bearer ${connection.apiKey}`;
    return headers;
  }

  async function follow(asked: URL, signal: AbortSignal, ro: RequestOptions): Promise<Exchange> {
    let url = asked;
    for (let hop = 0; ; hop++) {
      const res = await exchange(url, asked, signal, ro);
      const location = res.headers.location;
      if (!REDIRECT_STATUSES.has(res.status) || !location) return res;
      if (hop >= MAX_REDIRECTS) throw new FailureError(`${requestName('GET', asked)}: more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new FailureError(`${requestName('GET', asked)}: ${statusLine(res.status)} to an invalid URL`);
      }
      assertSameOrigin(next, base, `${requestName('GET', asked)}: redirected to ${showUrl(next)}`);
      url = next;
    }
  }

  async function get(pathOrUrl: string, ro: RequestOptions = {}): Promise<HttpResponse> {
    const url = withQuery(joinUrl(base, pathOrUrl), ro.query);
    // The origin first: a URL on another host is refused whatever its scheme, and --allow-http (which
    // the transport check would suggest for http://) would not change that.
    assertSameOrigin(url, base, `GET ${showUrl(url)}`);
    assertTransportAllowed(url, globals.allowHttp);
    // Commands usually pass the run's own signal: combined only when it is another one.
    const signal = ro.signal && ro.signal !== opts.signal ? AbortSignal.any([opts.signal, ro.signal]) : opts.signal;
    const retries = globals.retries;
    for (let retry = 0; ; retry++) {
      if (signal.aborted) throw new InterruptedError();
      let res: Exchange;
      try {
        res = await follow(url, signal, ro);
      } catch (err) {
        if (err instanceof CliError) throw err;
        if (retry >= retries || !isRetryableError(err, url)) throw networkFailure('GET', url, err, retry, env);
        const ms = backoffMs(retry, baseMs);
        await waitToRetry(url, { why: errorCode(err) ?? 'a network error', retry: retry + 1, retries, ms }, signal);
        continue;
      }
      if ((res.status >= 200 && res.status < 300) || (res.status === 304 && ro.notModified))
        return makeResponse('GET', res.url, res.status, res.headers, res.body);
      const after = retryAfterMs(res.headers['retry-after']);
      const tooLong = after !== undefined && after > MAX_RETRY_AFTER_MS;
      if (retry >= retries || !RETRY_STATUSES.has(res.status) || tooLong) {
        const contentType = res.headers['content-type'];
        throw errorForStatus({
          method: 'GET',
          url,
          status: res.status,
          body: res.body,
          contentType,
          retries: retry,
          retryAfterMs: after,
          tooLongWait: tooLong ? { askedMs: after, maxMs: MAX_RETRY_AFTER_MS } : undefined,
          authHint,
          apiKey: connection.apiKey,
        });
      }
      const ms = after ?? backoffMs(retry, baseMs);
      await waitToRetry(url, { why: statusLine(res.status), retry: retry + 1, retries, ms }, signal);
    }
  }

  /** The wait before retry number `retry`: in --debug's log, and on a terminal as a note counting down. */
  async function waitToRetry(url: URL, w: { why: string; retry: number; retries: number; ms: number }, signal: AbortSignal) {
    log.retry(w.retry, w.retries, w.ms, w.why);
    const noted = retryNote({ io: opts.io, globals, env }, requestName('GET', url), url.host, w);
    try {
      await pause(w.ms, signal, { sleep: wait });
    } finally {
      noted();
    }
  }

  return {
    baseUrl: base,
    get,
    async close() {
      // An injected dispatcher belongs to whoever made it (tests close their MockAgent themselves).
      await (await ownPool)?.close();
    },
  };
}
