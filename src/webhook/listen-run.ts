// `webhook listen`: a local receiver for development. Each request is read whole (deliveries are
// small; over BODY_LIMIT is refused), verified over its raw bytes, saved as a capture, answered 200 or
// 401 and reported in one line at once; an authentic one is then forwarded, and the forward's outcome
// gets a line of its own when it comes (as `stripe listen` does), so a slow forward target never holds
// back the delivery's line. Stops on SIGINT/SIGTERM with exit 0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve as resolvePath } from 'node:path';
import type { Context } from '../context';
import { hint } from '../context';
import { UsageError } from '../errors';
import { listenFailure } from '../listen-error';
import { BodyDigest } from './body-digest';
import { bufferSource, SPOOL_LIMIT } from './body-source';
import { CaptureSaver } from './capture-file';
import { bookingUid, deliveryLine, forwardLine } from './delivery-line';
import { forwardDelivery } from './forward';
import { parseHttpUrl } from './post';
import { resolveSecret, type SecretOptions } from './secret';
import { fromHeaders, judge } from './verdict';
import { visible } from './text';

export interface ListenOptions extends SecretOptions {
  port?: number;
  host?: string;
  forwardTo?: string;
  saveDir?: string;
  /** false with --no-save. */
  save?: boolean;
}

export const DEFAULT_PORT = 8787;
export const DEFAULT_SAVE_DIR = 'booking-captures';
const BODY_LIMIT = SPOOL_LIMIT;
const STOP_GRACE_MS = 2000;

export async function listen(opts: ListenOptions, ctx: Context): Promise<number> {
  const forwardTo = opts.forwardTo === undefined ? undefined : parseHttpUrl(opts.forwardTo, '--forward-to');
  const host = opts.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host must not be empty.');
  const saver = opts.save === false ? undefined : new CaptureSaver(resolvePath(opts.saveDir ?? DEFAULT_SAVE_DIR));
  const secret = await resolveSecret(opts, ctx);
  if (ctx.signal.aborted) return 0;

  const pending = new Set<Promise<void>>();
  // Forwards still running at stop get a moment to finish (bin/booking.js ends the process 3 s after
  // the signal), then are aborted.
  const forwards = new AbortController();
  let stopping = false;
  const server = createServer((req, res) => {
    const from = req.socket.remoteAddress;
    const p = receive(req, res, from).catch((err: unknown) => {
      if (stopping && req.destroyed) {
        ctx.io.stderr.write(`warning: a delivery from ${from} was still arriving at stop; dropped.\n`);
        return;
      }
      ctx.io.stderr.write(`error: handling ${req.method} ${visible(req.url ?? '')}: ${(err as Error).message}\n`);
      if (!res.headersSent) res.writeHead(500).end();
    });
    pending.add(p);
    void p.finally(() => pending.delete(p));
  });

  async function receive(req: IncomingMessage, res: ServerResponse, from: string | undefined): Promise<void> {
    const time = ctx.now();
    const body = await readBody(req);
    if (body === undefined) {
      res.writeHead(413, { 'content-type': 'application/json', connection: 'close' }).end('{"ok":false,"error":"body too large"}\n');
      // The address is taken at the start: once the 413 has gone out, the socket may already be gone.
      ctx.io.stderr.write(`warning: refused a body over ${BODY_LIMIT / 1024 / 1024} MiB from ${from}.\n`);
      return;
    }
    const headers = fromHeaders(req.rawHeaders);
    const event = headers.event;
    const digest = new BodyDigest(secret);
    digest.update(body);
    const source = bufferSource(body);
    const verdict = await judge({ secret, ...headers, digests: digest.finish(), again: source.again() });
    let capture: string | null = null;
    if (saver) {
      try {
        capture = await saver.save(req, body, event, time);
      } catch (err) {
        ctx.io.stderr.write(`warning: could not save the capture in ${saver.dir}: ${(err as Error).message}\n`);
      }
    }
    const answer = verdict.authentic ? { ok: true } : { ok: false, error: 'not authentic' };
    res.writeHead(verdict.authentic ? 200 : 401, { 'content-type': 'application/json' }).end(`${JSON.stringify(answer)}\n`);
    const uid = bookingUid(body);
    ctx.io.stdout.write(deliveryLine(ctx, { time, method: req.method ?? '', path: req.url ?? '', verdict, uid, capture }));
    if (!verdict.authentic || !forwardTo) return;
    const forward = await forwardDelivery(forwardTo, req, body, ctx.globals.timeoutMs, forwards.signal);
    ctx.io.stdout.write(forwardLine(ctx, { time: ctx.now(), event, uid, capture, forward }));
  }

  const address = await startServer(server, opts.port ?? DEFAULT_PORT, host);
  // The address is printed even with -q: with --port 0 it is the only way to learn the port.
  ctx.io.stderr.write(`Listening for deliveries on http://${address}/ (Ctrl-C to stop)\n`);
  hint(ctx, saver ? `Captures are saved in ${saver.dir} (check one again with: booking webhook verify --request FILE)` : 'Captures are not saved (--no-save).');
  if (forwardTo) hint(ctx, `Authentic deliveries are forwarded to ${forwardTo.href}`);

  await new Promise<void>((resolve) => {
    if (ctx.signal.aborted) resolve();
    else ctx.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopping = true;
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  // After the grace, forwards still running are aborted, and deliveries still arriving (a sender that
  // stalled part-way through a body) are cut off, so that Ctrl-C always ends with exit 0.
  const grace = setTimeout(() => {
    forwards.abort();
    server.closeAllConnections();
  }, STOP_GRACE_MS);
  await Promise.allSettled([...pending]);
  clearTimeout(grace);
  server.closeAllConnections();
  await closed;
  hint(ctx, 'Stopped.');
  return 0;
}

function startServer(server: ReturnType<typeof createServer>, port: number, host: string): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) => reject(listenFailure(err, host, `${host}:${port}`)));
    server.listen(port, host, () => {
      const a = server.address();
      if (a === null || typeof a === 'string') return resolve(String(a));
      resolve(`${a.family === 'IPv6' ? `[${a.address}]` : a.address}:${a.port}`);
    });
  });
}

/** The whole body, or undefined when it is over the limit. */
async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
