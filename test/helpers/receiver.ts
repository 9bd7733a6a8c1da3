// One loopback webhook receiver for the tests: records every request (method, URL, headers, raw
// body) and answers with a fixed status (or one per request, or none: it hangs). `arrived(n)`
// resolves once n requests have come: tests wait on that event rather than a sleep.
import { createServer, type IncomingHttpHeaders } from 'node:http';

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  rawHeaders: string[];
  body: Buffer;
}

export interface Receiver {
  /** http://127.0.0.1:PORT (no trailing slash). */
  url: string;
  received: Received[];
  arrived(count: number): Promise<void>;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  status?: number;
  into?: Received[];
  /** The status for the n-th request (0-based); undefined leaves it unanswered (a receiver that hangs). */
  respond?: (n: number) => number | undefined;
}

export async function startReceiver(opts: ReceiverOptions = {}): Promise<Receiver> {
  const received = opts.into ?? [];
  const waiters: { count: number; resolve(): void }[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const n = received.length;
    received.push({ method: req.method!, url: req.url!, headers: req.headers, rawHeaders: req.rawHeaders, body: Buffer.concat(chunks) });
    const status = opts.respond ? opts.respond(n) : (opts.status ?? 200);
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
