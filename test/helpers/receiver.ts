// The one loopback receiver of the tests: records every request (method, URL, headers, raw body,
// and the status it was answered) and answers what `answer` says: a status, or a function of the
// request and its number (from 1), 200 by default. `arrived(n)` resolves once n requests have come:
// tests wait on that event rather than a sleep.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { join } from 'node:path';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
  /** The status it was answered (0: left unanswered). */
  status: number;
}

export interface ReceiverOptions {
  /**
   * The status of every answer, or a function of the request and its number (from 1); undefined
   * from it leaves that request unanswered (a receiver that hangs).
   */
  answer?: number | ((request: Received, n: number) => number | undefined);
  /** Record into this list (a test's own) rather than a new one. */
  into?: Received[];
}

export interface Receiver {
  /** http://127.0.0.1:PORT (no trailing slash); any path is received. */
  url: string;
  received: Received[];
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const received = opts.into ?? [];
  const answer = opts.answer ?? 200;
  const waiters: { count: number; resolve(): void }[] = [];
  let n = 0;
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const request: Received = {
      method: req.method!,
      url: req.url!,
      headers: req.headers,
      rawHeaders: req.rawHeaders,
      body: Buffer.concat(chunks),
      status: 0,
    };
    const status = typeof answer === 'number' ? answer : answer(request, ++n);
    request.status = status ?? 0;
    received.push(request);
    if (status !== undefined) res.writeHead(status).end();
    for (const w of waiters.splice(0)) {
      if (received.length >= w.count) w.resolve();
      else waiters.push(w);
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    received,
    arrived: (count) => (received.length >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve }))),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Each request as a capture file (000.http, 001.http, …) in `dir`, made if missing: a folder for `webhook verify --request`. */
export function saveCaptures(dir: string, received: Received[]): void {
  mkdirSync(dir, { recursive: true });
  received.forEach((r, i) => {
    const head = [`${r.method} ${r.url} HTTP/1.1`];
    for (let h = 0; h < r.rawHeaders.length; h += 2) head.push(`${r.rawHeaders[h]}: ${r.rawHeaders[h + 1]}`);
    writeFileSync(join(dir, `${String(i).padStart(3, '0')}.http`), Buffer.concat([Buffer.from(`${head.join('\r\n')}\r\n\r\n`), r.body]));
  });
}
