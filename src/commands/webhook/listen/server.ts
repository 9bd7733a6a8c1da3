// `webhook listen`: a local receiver for development. This file runs the server: its options, its
// start-up lines, and its stop on SIGINT/SIGTERM with exit 0; each delivery is handled by receive.ts.
import { randomBytes } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { createServer } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve as resolvePath } from 'node:path';
import type { Context } from '../../../context';
import { hint, outputFormat } from '../../../context';
import { UsageError } from '../../../base/errors';
import { listenFailure } from '../../../base/listen-error';
import { formatDuration } from '../../../base/words';
import { CAL_EVENTS, EVENTS } from '../../../webhook/events';
import { receiverJudge } from '../../../webhook/schemes/delivery-judge';
import { visible } from '../../../webhook/text';
import { ageRule } from '../shared/scheme-options';
import { resolveSecrets } from '../shared/secret';
import { IDLE_LIMIT_MS, IN_FLIGHT_LIMIT } from './body';
import { ByteBudget } from './budget';
import { listenWriter } from './lines';
import { forwardsToSelf } from './loop';
import type { ListenOptions } from './options';
import { Receiver } from './receive';
import { allTargets, forwardRoutes, routesHint } from './routes';
import { CaptureSaver } from './save';
import { ListenWarnings } from './warnings';

const DEFAULT_PORT = 8787;
const DEFAULT_SAVE_DIR = 'booking-captures';
const STOP_GRACE_MS = 2000;

export async function listen(opts: ListenOptions, ctx: Context): Promise<number> {
  const routes = forwardRoutes(opts.forwardTo);
  const host = opts.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host must not be empty.');
  const only = opts.events && eventFilter(opts.events, ctx, opts.scheme ?? 'service');
  const saver = opts.save === false ? undefined : new CaptureSaver(resolvePath(opts.saveDir ?? DEFAULT_SAVE_DIR), opts.maxSaved);
  const budget = new ByteBudget(opts.maxInFlight ?? IN_FLIGHT_LIMIT);
  if (opts.respondAfter !== undefined && opts.respond === undefined)
    throw new UsageError('--respond-after N needs --respond STATUS: the status of the first N attempts.');
  const idleMs = opts.idleTimeoutMs ?? IDLE_LIMIT_MS;
  const lines = await listenWriter(ctx);
  const secrets = await resolveSecrets(opts, ctx);
  const judgeDelivery = receiverJudge(opts.scheme, secrets, ageRule(opts, ctx));
  if (ctx.signal.aborted) return 0;
  const warnings = new ListenWarnings(ctx);
  // This run's mark on what it forwards: a delivery that comes back with it has gone round a loop.
  const self = randomBytes(6).toString('hex');
  // --no-save --forward-to: each body to forward goes to a file of a private temporary folder as it
  // arrives, and is forwarded from it, as from a capture: held in memory, 30 x 60 MiB deliveries
  // peaked at 462 MB on node 24, 625 MB on node 20 (the budget, 256 MiB, plus socket chunks and, on
  // node 20, the join). Removed at stop; each file as soon as its delivery is done.
  const spoolDir = !saver && routes ? await mkdtemp(join(tmpdir(), 'booking-listen-forward-')) : undefined;
  const dropSpool = async () => spoolDir && (await rm(spoolDir, { recursive: true, force: true }));
  const spooler = saver ?? (spoolDir === undefined ? undefined : new CaptureSaver(spoolDir));

  const pending = new Set<Promise<void>>();
  // Forwards still running at stop get a moment to finish (bin/booking.js ends the process 3 s after
  // the signal), then are aborted. Each running forward listens on this signal: any number may run.
  const forwards = new AbortController();
  setMaxListeners(0, forwards.signal);
  let stopping = false;
  const receiver = new Receiver({
    opts,
    ctx,
    saver,
    spooler,
    budget,
    routes,
    only,
    judgeDelivery,
    lines,
    warnings,
    idleMs,
    self,
    forwards: forwards.signal,
  });
  // Headers must arrive within the idle limit too (node checks every connectionsCheckingInterval).
  const server = createServer(
    { headersTimeout: idleMs, requestTimeout: 0, connectionsCheckingInterval: Math.min(idleMs, 1000) },
    (req, res) => {
      const from = req.socket.remoteAddress;
      const p = receiver.receive(req, res, from).catch((err: unknown) => {
        if (stopping && req.destroyed)
          return warnings.once('still arriving at stop', `a delivery from ${from} was still arriving at stop; dropped.`);
        ctx.io.stderr.write(`error: handling ${req.method} ${visible(req.url ?? '')}: ${(err as Error).message}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      pending.add(p);
      void p.finally(() => pending.delete(p));
    },
  );

  const address = await startServer(server, opts.port ?? DEFAULT_PORT, host).catch(async (err: unknown) => {
    await dropSpool();
    throw err;
  });
  for (const forwardTo of allTargets(routes)) {
    if (!(await forwardsToSelf(forwardTo, server))) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await dropSpool();
    throw new UsageError(
      `--forward-to ${visible(forwardTo.href)} is this listen itself (${address}): each delivery would be forwarded to itself for ever.`,
    );
  }
  // The address is printed even with -q: with --port 0 it is the only way to learn the port.
  ctx.io.stderr.write(`Listening for deliveries on http://${address}/ (Ctrl-C to stop)\n`);
  // A script reading ndjson waits for this record, not for a line on stderr (json streams the same lines).
  const format = outputFormat(ctx);
  if ((format === 'ndjson' || format === 'json') && ctx.globals.jq === undefined && !ctx.globals.fields)
    ctx.io.stdout.write(`${JSON.stringify({ type: 'listening', url: `http://${address}/` })}\n`);
  hint(
    ctx,
    saver
      ? `Captures are saved in ${saver.dir} (check them with: booking webhook verify --request FOLDER-OR-FILE)`
      : 'Captures are not saved (--no-save).',
  );
  if (routes) hint(ctx, routesHint(routes));
  if (opts.respond !== undefined || opts.respondDelay) hint(ctx, respondHint(opts));
  if (only) hint(ctx, `Only ${[...only].join(', ')} are shown and forwarded; other events are answered 200 and counted.`);

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
  await dropSpool();
  warnings.summary();
  hint(
    ctx,
    only
      ? `Stopped. ${receiver.ignored} ${receiver.ignored === 1 ? 'delivery' : 'deliveries'} of other events answered 200 and not shown (--events).`
      : 'Stopped.',
  );
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

/**
 * --events as a set. Cal.com's deliveries name events their own way (BOOKING_CREATED): with --scheme
 * cal, a name of the service's is taken in Cal.com's name too (booking.created is BOOKING_REQUESTED),
 * as send --scheme cal names it. A name neither the service's nor of that form draws a warning (a typo
 * would show nothing). Other schemes' senders carry any name in their field: no warning for them.
 */
function eventFilter(names: string[], ctx: Context, scheme: string): Set<string> {
  const cal = scheme === 'cal';
  const service = (n: string) => (EVENTS as readonly string[]).includes(n);
  const unknown = names.filter((n) => !service(n) && !(cal && /^[A-Z][A-Z0-9_]*$/.test(n)));
  if (unknown.length && (cal || scheme === 'service')) {
    const known = cal ? `${EVENTS.join(', ')}; or Cal.com's, such as ${Object.values(CAL_EVENTS).join(', ')}` : EVENTS.join(', ');
    ctx.io.stderr.write(
      `warning: --events: ${unknown.map(visible).join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} the service sends (${known}).\n`,
    );
  }
  return new Set(names.flatMap((n) => (cal && CAL_EVENTS[n] ? [n, CAL_EVENTS[n]] : [n])));
}

function respondHint(opts: ListenOptions): string {
  const status =
    opts.respond === undefined
      ? 'as usual'
      : opts.respondAfter === undefined
        ? `${opts.respond}`
        : `${opts.respond} for the first ${opts.respondAfter} attempts of each, then 200`;
  return `Authentic deliveries are answered ${status}${opts.respondDelay ? `, after ${formatDuration(opts.respondDelay)}` : ''}.`;
}
