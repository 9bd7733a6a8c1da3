// The one HTTP POST of the program outside the service's API, over node:http(s), with a body in
// memory or read from a file (a large delivery `webhook listen` forwards from its capture): what
// `webhook send` delivers, what `webhook listen` forwards, and what the sandbox sends to its webhook URLs. Headers are given as a flat name/value list so that names keep their case and
// order (node sends an array of raw headers as is).
import type { ClientRequest, IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
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
    // Settled once the answer is read and the body is sent (or the connection is gone). An answer
    // that comes before the body is sent is read only once it is: node's client stops writing a
    // streamed body when the answer has ended (a receiver that acknowledges at once, then reads), and
    // an answer left unread cannot end. A connection the receiver closes after answering keeps the
    // answer it gave.
    let response: IncomingMessage | undefined;
    let reading = false;
    let sent = false;
    let answered: PostResult | undefined;
    const read = () => {
      if (!response || reading) return;
      reading = true;
      const res = response;
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
    };
    const over = () => {
      sent = true;
      read();
      if (answered) resolve(answered);
    };
    // Ctrl-C and the timeout end the exchange whatever it got; a receiver closing after its answer does not.
    const ended = (err: Error & { code?: string }) => err.name === 'AbortError' || err.code === 'ETIMEDOUT';
    req.on('error', (err) => (response && !ended(err) ? over() : reject(err)));
    req.once('finish', over);
    req.once('close', over);
    req.on('response', (res) => {
      response = res;
      if (req.writableFinished) read();
    });
    if (Buffer.isBuffer(body)) req.end(body);
    else void pump(body, req);
  });
}

/**
 * A streamed body, written a chunk at a time. Not pipeline(): node's client emits no more 'drain'
 * once an answer has come, and a receiver that acknowledges before it reads (common) left the piped
 * body stalled after the socket's first buffer; the socket's own 'drain' still comes. A stream's
 * failure fails the request (its 'error'); a request that ends closes the stream.
 */
async function pump(body: Readable, req: ClientRequest): Promise<void> {
  try {
    for await (const chunk of body) {
      if (req.destroyed) return;
      if (!req.write(chunk)) await writable(req);
    }
    req.end();
  } catch (err) {
    req.destroy(err as Error);
  }
}

function writable(req: ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const socket = req.socket;
    const done = () => {
      req.off('drain', done);
      req.off('close', done);
      socket?.off('drain', done);
      resolve();
    };
    req.once('drain', done);
    req.once('close', done);
    socket?.once('drain', done);
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
