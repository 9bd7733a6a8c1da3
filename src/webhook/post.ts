// The one HTTP POST of the program outside the service's API, over node:http(s), with a body in
// memory or read from a file (a large delivery `webhook listen` forwards from its capture): what
// `webhook send` delivers, what `webhook listen` forwards, and what the sandbox sends to its webhook URLs. Headers are given as a flat name/value list so that names keep their case and
// order (node sends an array of raw headers as is).
import { pipeline, type Readable } from 'node:stream';
import { FailureError, InterruptedError, UsageError } from '../base/errors';

export interface PostResult {
  status: number;
  statusText: string;
  /** The first 64 KiB of the response body, for an error message. */
  body: Buffer;
}

export interface PostOptions {
  method?: string;
  /** Bounds the whole exchange; a request past it fails with code ETIMEDOUT. 0: no bound. */
  timeoutMs: number;
  /** Aborting it fails the request with an AbortError. */
  signal?: AbortSignal;
  /** false: a connection of its own, closed after the answer (none left open to keep a process alive). */
  agent?: false;
}

const KEEP = 64 * 1024;

/** The POST and its answer; a failure rejects with node's own error (see PostOptions for which). */
export async function post(url: URL, rawHeaders: string[], body: Buffer | Readable, opts: PostOptions): Promise<PostResult> {
  const mod = process.getBuiltinModule(url.protocol === 'https:' ? 'node:https' : 'node:http') as typeof import('node:http');
  return new Promise<PostResult>((settle, fail) => {
    // Given headers as a raw list, node adds no Host of its own.
    const headers = hasHeader(rawHeaders, 'host') ? rawHeaders : ['Host', url.host, ...rawHeaders];
    const req = mod.request(url, {
      method: opts.method ?? 'POST',
      headers,
      signal: opts.signal,
      ...(opts.agent === false ? { agent: false } : {}),
    });
    // The timeout bounds the whole exchange, body included: a receiver that answers and then keeps
    // sending (or keeps the socket just busy enough) must not hold the command forever.
    const deadline =
      opts.timeoutMs > 0
        ? setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })), opts.timeoutMs)
        : undefined;
    const resolve = (r: PostResult) => {
      clearTimeout(deadline);
      settle(r);
    };
    const reject = (err: Error) => {
      clearTimeout(deadline);
      fail(err);
    };
    req.on('error', reject);
    // Settled once the answer is read and the body is sent (or the connection is gone): a receiver
    // may answer before it has read the whole body, which is then still being written.
    let answered: PostResult | undefined;
    let sent = false;
    const over = () => {
      sent = true;
      if (answered) resolve(answered);
    };
    req.once('finish', over);
    req.once('close', over);
    req.on('response', (res) => {
      const kept: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        if (size < KEEP) kept.push(c);
        size += c.length;
      });
      res.on('error', reject);
      res.on('end', () => {
        answered = { status: res.statusCode ?? 0, statusText: res.statusMessage ?? '', body: Buffer.concat(kept).subarray(0, KEEP) };
        if (sent) resolve(answered);
      });
    });
    // A stream's failure fails the request (its 'error' above); the request's closes the stream.
    if (Buffer.isBuffer(body)) req.end(body);
    else pipeline(body, req, () => {});
  });
}

/** post(), failing as a command reports it: FailureError "cannot reach …", or InterruptedError (Ctrl-C). */
export async function postRaw(url: URL, rawHeaders: string[], body: Buffer | Readable, opts: PostOptions): Promise<PostResult> {
  try {
    return await post(url, rawHeaders, body, opts);
  } catch (err) {
    throw unreachable(url, err, opts.timeoutMs);
  }
}

const WHY: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

function unreachable(url: URL, err: unknown, timeoutMs: number): Error {
  const e = err as { code?: string; name?: string; message?: string };
  if (e.name === 'AbortError') return new InterruptedError();
  // A timeout may come after the receiver answered (a body that never ends): not "cannot reach".
  if (e.code === 'ETIMEDOUT') return new FailureError(`${url.origin}: no complete answer within ${timeoutMs / 1000}s (--timeout).`);
  return new FailureError(`cannot reach ${url.origin}: ${WHY[e.code ?? ''] ?? e.message ?? String(err)}.`);
}

function hasHeader(rawHeaders: string[], lower: string): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === lower) return true;
  return false;
}

/** Content-Length set to the body's size, unless the caller set one. */
export function withLength(rawHeaders: string[], body: Buffer): string[] {
  return hasHeader(rawHeaders, 'content-length') ? rawHeaders : [...rawHeaders, 'Content-Length', String(body.length)];
}

/** An http(s) URL from a user's argument, or a UsageError naming the option. */
export function parseHttpUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`${what} "${value}" is not a URL (expected http://host:port/path).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`${what} must be an http:// or https:// URL, not ${url.protocol}//.`);
  return url;
}
