// `webhook listen`: a local receiver for development. Each POST is read within an in-flight budget
// (body.ts) into its digests and its capture as it arrives (intake.ts), verified over its raw bytes,
// answered 200 or 401 and reported in one line at once; an authentic one is then forwarded, and the
// forward's outcome gets a line of its own when it comes (as `stripe listen` does), so a slow
// forward target never holds back the delivery's line. Anything but a POST is answered 405; with
// --events, deliveries of other events are answered 200 and only counted. Stops on SIGINT/SIGTERM
// with exit 0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { setMaxListeners } from 'node:events';
import { resolve as resolvePath } from 'node:path';
import type { Context } from '../../../context';
import { hint, outputFormat } from '../../../context';
import { UsageError } from '../../../base/errors';
import { listenFailure } from '../../../base/listen-error';
import { SPOOL_LIMIT } from '../../../webhook/reader';
import { formatBytes } from '../../../base/words';
import { CaptureSaver } from './save';
import { bookingUid, listenWriter } from './lines';
import { EVENTS } from '../../../webhook/events';
import { forwardDelivery } from './forward';
import { declaredLength, IDLE_LIMIT_MS, IN_FLIGHT_LIMIT, readBudgeted } from './body';
import { ByteBudget } from './budget';
import { openIntake, type Received } from './intake';
import { allTargets, forwardRoutes, routeFor, routesHint } from './routes';
import { forwardsToSelf, LOOP_HEADER, loopMarks, MAX_HOPS } from './loop';
import { Repeats } from './repeats';
import { ListenWarnings } from './warnings';
import { formatDuration } from '../../../base/words';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { resolveSecrets } from '../shared/secret';
import type { ListenOptions } from './options';
import { receiverJudge } from '../../../webhook/schemes/delivery-judge';
import { ageRule } from '../shared/scheme-options';
import { visible } from '../../../webhook/text';

const DEFAULT_PORT = 8787;
const DEFAULT_SAVE_DIR = 'booking-captures';
const BODY_LIMIT = SPOOL_LIMIT;
const STOP_GRACE_MS = 2000;

export async function listen(opts: ListenOptions, ctx: Context): Promise<number> {
  const routes = forwardRoutes(opts.forwardTo);
  const host = opts.host ?? '127.0.0.1';
  if (host.trim() === '') throw new UsageError('--host must not be empty.');
  // Another service's deliveries name events its own way (Cal.com's BOOKING_CREATED): no warning for them.
  const only = opts.events && eventFilter(opts.events, ctx, opts.scheme === undefined || opts.scheme === 'service');
  const saver = opts.save === false ? undefined : new CaptureSaver(resolvePath(opts.saveDir ?? DEFAULT_SAVE_DIR), opts.maxSaved);
  const budget = new ByteBudget(opts.maxInFlight ?? IN_FLIGHT_LIMIT);
  if (opts.respondAfter !== undefined && opts.respond === undefined)
    throw new UsageError('--respond-after N needs --respond STATUS: the status of the first N attempts.');
  const idleMs = opts.idleTimeoutMs ?? IDLE_LIMIT_MS;
  const lines = await listenWriter(ctx);
  const secrets = await resolveSecrets(opts, ctx);
  const judgeDelivery = receiverJudge(opts.scheme, secrets, ageRule(opts, ctx));
  if (ctx.signal.aborted) return 0;
  const repeats = new Repeats();
  const warnings = new ListenWarnings(ctx);
  // This run's mark on what it forwards: a delivery that comes back with it has gone round a loop.
  const self = randomBytes(6).toString('hex');

  const pending = new Set<Promise<void>>();
  // Forwards still running at stop get a moment to finish (bin/booking.js ends the process 3 s after
  // the signal), then are aborted. Each running forward listens on this signal: any number may run.
  const forwards = new AbortController();
  setMaxListeners(0, forwards.signal);
  let stopping = false;
  let ignored = 0;
  let savingStopped = false;
  // Headers must arrive within the idle limit too (node checks every connectionsCheckingInterval).
  const server = createServer(
    { headersTimeout: idleMs, requestTimeout: 0, connectionsCheckingInterval: Math.min(idleMs, 1000) },
    (req, res) => {
      const from = req.socket.remoteAddress;
      const p = receive(req, res, from).catch((err: unknown) => {
        if (stopping && req.destroyed)
          return warnings.once('still arriving at stop', `a delivery from ${from} was still arriving at stop; dropped.`);
        ctx.io.stderr.write(`error: handling ${req.method} ${visible(req.url ?? '')}: ${(err as Error).message}\n`);
        if (!res.headersSent) res.writeHead(500).end();
      });
      pending.add(p);
      void p.finally(() => pending.delete(p));
    },
  );

  async function receive(req: IncomingMessage, res: ServerResponse, from: string | undefined): Promise<void> {
    const time = ctx.now();
    if (req.method !== 'POST') {
      req.resume();
      answer(res, 405, { ok: false, error: 'deliveries are POST requests' }, { allow: 'POST' });
      hint(ctx, `${req.method} ${visible(req.url ?? '')} answered 405: deliveries are POST requests (not saved).`);
      return;
    }
    const marks = loopMarks(req.rawHeaders);
    if (marks.includes(self) || marks.length >= MAX_HOPS) {
      req.resume();
      answer(res, 508, { ok: false, error: 'forwarding loop' });
      warnings.once(
        'answered 508 (a forwarding loop)',
        `answered 508 to a delivery that had already been forwarded ${marks.includes(self) ? 'by this listen' : `${marks.length} times`} (${LOOP_HEADER}): a forwarding loop is cut here.`,
      );
      return;
    }
    const intake = await openIntake(req, { saver, secrets: judgeDelivery.streamed, forwards: routes !== undefined, maxBody: BODY_LIMIT });
    try {
      const read = await readBudgeted(req, budget, BODY_LIMIT, intake, idleMs);
      if ('refused' in read) return refused(res, read.refused, from);
      try {
        await handle(req, res, await intake.finish(), time);
      } finally {
        budget.give(read.held);
      }
    } finally {
      await intake.release();
    }
  }

  function refused(res: ServerResponse, status: 408 | 413 | 503, from: string | undefined): void {
    if (status === 408) {
      answer(res, 408, { ok: false, error: 'no byte for too long' }, { connection: 'close' });
      res.once('finish', () => res.socket?.destroy());
      warnings.once(
        `cut for sending nothing for ${idleMs / 1000} s`,
        `cut a delivery from ${from} that sent nothing for ${idleMs / 1000} s (its bytes are dropped).`,
      );
      return;
    }
    if (status === 503) {
      answer(res, 503, { ok: false, error: 'too many deliveries at once' }, { 'retry-after': '1' });
      warnings.once(
        'answered 503 (too many at once)',
        `answered 503 to ${from}: over ${budget.limit / 1024 / 1024} MiB of deliveries were already being handled.`,
      );
      return;
    }
    answer(res, 413, { ok: false, error: 'body too large' }, { connection: 'close' });
    // The address is taken at the start: once the 413 has gone out, the socket may already be gone.
    warnings.once(`refused as over ${BODY_LIMIT / 1024 / 1024} MiB`, `refused a body over ${BODY_LIMIT / 1024 / 1024} MiB from ${from}.`);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, got: Received, time: Date): Promise<void> {
    const verdict = await judgeDelivery.judge(req.rawHeaders, got);
    const event = verdict.event;
    // The filter is for authentic deliveries only: one that is not authentic is answered 401 and shown
    // whatever event it claims (a missing or wrong signature is what the user must see).
    if (only && verdict.authentic && !only.has(event ?? '')) {
      ignored++;
      answer(res, 200, { ok: true, ignored: 'not one of --events' });
      return;
    }
    const attempt = repeats.arrive(got.fingerprint, got.body, time);
    let capture: string | null = null;
    if (saver) {
      try {
        if (got.saveFailed) throw got.saveFailed;
        // No spool for a body of a declared length: the folder was full (--max-saved) when it came.
        if (got.spool) capture = await got.spool.publish(event, time);
        else if (got.body && Number.isNaN(declaredLength(req))) capture = await saver.save(req, got.body, event, time);
      } catch (err) {
        // The sender is told to try again (the service retries), rather than losing the delivery.
        ctx.io.stderr.write(`warning: could not save a delivery in ${saver.dir} (answered 500): ${(err as Error).message}\n`);
        answer(res, 500, { ok: false, error: 'could not save the delivery' });
        return;
      }
      if (capture === null && !savingStopped) {
        savingStopped = true;
        ctx.io.stderr.write(
          `warning: ${saver.dir} holds --max-saved ${formatBytes(saver.maxBytes)}: deliveries are still verified and answered, but no longer saved.\n`,
        );
      }
    }
    attempt.saved(capture);
    const status = !verdict.authentic
      ? 401
      : opts.respond !== undefined && (opts.respondAfter === undefined || attempt.n <= opts.respondAfter)
        ? opts.respond
        : 200;
    if (opts.respondDelay) await sleep(opts.respondDelay, undefined, { signal: ctx.signal }).catch(() => undefined);
    const ok = status >= 200 && status < 300;
    answer(
      res,
      status,
      verdict.authentic ? (ok ? { ok: true } : { ok: false, error: '--respond' }) : { ok: false, error: 'not authentic' },
    );
    const uid = got.body ? bookingUid(got.body) : null;
    const answered = opts.respond === undefined ? undefined : status;
    await lines.write({ time, method: req.method ?? '', path: req.url ?? '', verdict, uid, capture, attempt, answered });
    // Forwarded when it is answered 2xx: the app then sees each delivery once the sender is done with it.
    const forwardTo = routeFor(routes, event);
    if (!verdict.authentic || !ok || !forwardTo) return;
    // A body not kept in memory is read back from its capture (openIntake keeps it when there is none).
    const body = got.body ?? got.spool!.body();
    const forward = await forwardDelivery(forwardTo, req, body, ctx.globals.timeoutMs, forwards.signal, self);
    await lines.write({ time: ctx.now(), event, uid, capture, forward });
  }

  const address = await startServer(server, opts.port ?? DEFAULT_PORT, host);
  for (const forwardTo of allTargets(routes)) {
    if (!(await forwardsToSelf(forwardTo, server))) continue;
    await new Promise<void>((resolve) => server.close(() => resolve()));
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
  warnings.summary();
  hint(
    ctx,
    only
      ? `Stopped. ${ignored} ${ignored === 1 ? 'delivery' : 'deliveries'} of other events answered 200 and not shown (--events).`
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

function answer(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(`${JSON.stringify(body)}\n`);
}

/** --events as a set; a name the service does not send draws a warning (a typo would show nothing). */
function eventFilter(names: string[], ctx: Context, warn: boolean): Set<string> {
  const unknown = names.filter((n) => !(EVENTS as readonly string[]).includes(n));
  if (unknown.length && warn)
    ctx.io.stderr.write(
      `warning: --events: ${unknown.map(visible).join(', ')} ${unknown.length === 1 ? 'is not an event' : 'are not events'} the service sends (${EVENTS.join(', ')}).\n`,
    );
  return new Set(names);
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
