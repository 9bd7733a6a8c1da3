// One delivery to `webhook listen`, from its request to its answer, its line and its forward: read
// within the in-flight budget (body.ts) into its digests and its capture as it arrives (intake.ts),
// verified over its raw bytes, answered 200 or 401 and reported in one line at once; an authentic one
// is then forwarded, and the forward's outcome gets a line of its own when it comes (as `stripe
// listen` does), so a slow forward target never holds back the delivery's line. Anything but a POST
// is answered 405; with --events, deliveries of other events are answered 200 and only counted.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { formatBytes } from '../../../base/words';
import { SPOOL_LIMIT } from '../../../webhook/reader';
import type { ReceiverJudge } from '../../../webhook/schemes/delivery-judge';
import { visible } from '../../../webhook/text';
import type { Verdict } from '../../../webhook/verdict';
import type { RecordWriter } from '../../../output/records';
import { DISK_STALL_MS, declaredLength, readBudgeted } from './body';
import type { ByteBudget } from './budget';
import { forwardDelivery } from './forward';
import { openIntake, type Received } from './intake';
import { bookingUid, type ListenRecord } from './lines';
import { LOOP_HEADER, loopMarks, MAX_HOPS } from './loop';
import type { ListenOptions } from './options';
import { type Attempt, Repeats } from './repeats';
import { type ForwardRoutes, routeFor } from './routes';
import { type CaptureSaver, DiskStalled } from './save';
import type { ListenWarnings } from './warnings';

const BODY_LIMIT = SPOOL_LIMIT;

/** What every delivery of one run shares. */
export interface ReceiverSetup {
  opts: ListenOptions;
  ctx: Context;
  saver: CaptureSaver | undefined;
  /**
   * Where a body of a declared length goes as it arrives: the save folder, or with --no-save
   * --forward-to a private temporary one, so that a body to forward is not held in memory.
   */
  spooler: CaptureSaver | undefined;
  budget: ByteBudget;
  routes: ForwardRoutes | undefined;
  /** --events, when given. */
  only: Set<string> | undefined;
  judgeDelivery: ReceiverJudge;
  lines: RecordWriter<ListenRecord>;
  warnings: ListenWarnings;
  idleMs: number;
  /** This run's loop mark (loop.ts). */
  self: string;
  /** Aborted when the run stops: forwards still running end. */
  forwards: AbortSignal;
}

export class Receiver {
  /** Deliveries of other events than --events', answered 200 and counted. */
  ignored = 0;
  private savingStopped = false;
  private readonly repeats = new Repeats();

  constructor(private readonly s: ReceiverSetup) {}

  async receive(req: IncomingMessage, res: ServerResponse, from: string | undefined): Promise<void> {
    const time = this.s.ctx.now();
    if (req.method !== 'POST') {
      req.resume();
      answer(res, 405, { ok: false, error: 'deliveries are POST requests' }, { allow: 'POST' });
      hint(this.s.ctx, `${req.method} ${visible(req.url ?? '')} answered 405: deliveries are POST requests (not saved).`);
      return;
    }
    const marks = loopMarks(req.rawHeaders);
    if (marks.includes(this.s.self) || marks.length >= MAX_HOPS) {
      req.resume();
      answer(res, 508, { ok: false, error: 'forwarding loop' });
      this.s.warnings.once(
        'answered 508 (a forwarding loop)',
        `answered 508 to a delivery that had already been forwarded ${marks.includes(this.s.self) ? 'by this listen' : `${marks.length} times`} (${LOOP_HEADER}): a forwarding loop is cut here.`,
      );
      return;
    }
    const intake = await openIntake(req, {
      saver: this.s.spooler,
      secrets: this.s.judgeDelivery.streamed,
      forwards: this.s.routes !== undefined,
      maxBody: BODY_LIMIT,
    });
    try {
      const read = await readBudgeted(req, this.s.budget, BODY_LIMIT, intake, this.s.idleMs);
      if ('refused' in read) return this.refused(res, read.refused, from, read.disk);
      try {
        const got = await intake.finish();
        // Its last bytes never reached the disk: answered as a sender paused on a stuck disk is.
        if (got.saveFailed instanceof DiskStalled) return this.refused(res, 503, from, true);
        await this.handle(req, res, got, time);
      } finally {
        this.s.budget.give(read.held);
      }
    } finally {
      await intake.release();
    }
  }

  private refused(res: ServerResponse, status: 408 | 413 | 503, from: string | undefined, disk = false): void {
    if (status === 408) {
      answer(res, 408, { ok: false, error: 'no byte for too long' }, { connection: 'close' });
      res.once('finish', () => res.socket?.destroy());
      this.s.warnings.once(
        `cut for sending nothing for ${this.s.idleMs / 1000} s`,
        `cut a delivery from ${from} that sent nothing for ${this.s.idleMs / 1000} s (its bytes are dropped).`,
      );
      return;
    }
    if (disk) {
      answer(res, 503, { ok: false, error: 'the capture could not be written in time' }, { 'retry-after': '1' });
      this.s.warnings.once(
        'answered 503 (the disk did not keep up)',
        `answered 503 to ${from}: its capture took no more bytes for ${DISK_STALL_MS / 1000} s (the disk did not keep up); the partial capture is removed.`,
      );
      return;
    }
    if (status === 503) {
      answer(res, 503, { ok: false, error: 'too many deliveries at once' }, { 'retry-after': '1' });
      this.s.warnings.once(
        'answered 503 (too many at once)',
        `answered 503 to ${from}: over ${this.s.budget.limit / 1024 / 1024} MiB of deliveries were already being handled.`,
      );
      return;
    }
    answer(res, 413, { ok: false, error: 'body too large' }, { connection: 'close' });
    // The address is taken at the start: once the 413 has gone out, the socket may already be gone.
    this.s.warnings.once(
      `refused as over ${BODY_LIMIT / 1024 / 1024} MiB`,
      `refused a body over ${BODY_LIMIT / 1024 / 1024} MiB from ${from}.`,
    );
  }

  /** A delivery answered 500 as it could not be kept still has its line, as a script reading them counts on. */
  private async unkept(req: IncomingMessage, got: Received, verdict: Verdict, time: Date, attempt: Attempt): Promise<void> {
    const uid = got.body ? bookingUid(got.body) : null;
    await this.s.lines.write({ time, method: req.method ?? '', path: req.url ?? '', verdict, uid, capture: null, attempt, answered: 500 });
  }

  private async handle(req: IncomingMessage, res: ServerResponse, got: Received, time: Date): Promise<void> {
    const verdict = await this.s.judgeDelivery.judge(req.rawHeaders, got);
    const event = verdict.event;
    // The filter is for authentic deliveries only: one that is not authentic is answered 401 and shown
    // whatever event it claims (a missing or wrong signature is what the user must see).
    if (this.s.only && verdict.authentic && !this.s.only.has(event ?? '')) {
      this.ignored++;
      answer(res, 200, { ok: true, ignored: 'not one of --events' });
      return;
    }
    const attempt = this.repeats.arrive(got.fingerprint, got.body, time);
    let capture: string | null = null;
    if (this.s.saver) {
      try {
        if (got.saveFailed) throw got.saveFailed;
        // No spool for a body of a declared length: the folder was full (--max-saved) when it came.
        if (got.spool) capture = await got.spool.publish(event, time);
        else if (got.body && Number.isNaN(declaredLength(req))) capture = await this.s.saver.save(req, got.body, event, time);
      } catch (err) {
        // The sender is told to try again (the service retries), rather than losing the delivery.
        this.s.ctx.io.stderr.write(`warning: could not save a delivery in ${this.s.saver.dir} (answered 500): ${(err as Error).message}\n`);
        answer(res, 500, { ok: false, error: 'could not save the delivery' });
        await this.unkept(req, got, verdict, time, attempt);
        return;
      }
      if (capture === null && !this.savingStopped) {
        this.savingStopped = true;
        this.s.ctx.io.stderr.write(
          `warning: ${this.s.saver.dir} holds --max-saved ${formatBytes(this.s.saver.maxBytes)}: deliveries are still verified and answered, but no longer saved.\n`,
        );
      }
    } else if (got.saveFailed && !got.body) {
      // --no-save: its temporary file was all there was of the body to forward.
      this.s.ctx.io.stderr.write(`warning: could not keep a delivery to forward (answered 500): ${got.saveFailed.message}\n`);
      answer(res, 500, { ok: false, error: 'could not keep the delivery to forward' });
      await this.unkept(req, got, verdict, time, attempt);
      return;
    }
    attempt.saved(capture);
    const status = !verdict.authentic
      ? 401
      : this.s.opts.respond !== undefined && (this.s.opts.respondAfter === undefined || attempt.n <= this.s.opts.respondAfter)
        ? this.s.opts.respond
        : 200;
    if (this.s.opts.respondDelay) await sleep(this.s.opts.respondDelay, undefined, { signal: this.s.ctx.signal }).catch(() => undefined);
    const ok = status >= 200 && status < 300;
    answer(
      res,
      status,
      verdict.authentic ? (ok ? { ok: true } : { ok: false, error: '--respond' }) : { ok: false, error: 'not authentic' },
    );
    const uid = got.body ? bookingUid(got.body) : null;
    await this.s.lines.write({ time, method: req.method ?? '', path: req.url ?? '', verdict, uid, capture, attempt, answered: status });
    // Forwarded when it is answered 2xx: the app then sees each delivery once the sender is done with it.
    const forwardTo = routeFor(this.s.routes, event);
    if (!verdict.authentic || !ok || !forwardTo) return;
    // A body not kept in memory is read back from its capture (openIntake keeps it when there is none).
    const body = got.body ?? got.spool!.body();
    const forward = await forwardDelivery(forwardTo, req, body, this.s.ctx.globals.timeoutMs, this.s.forwards, this.s.self);
    await this.s.lines.write({ time: this.s.ctx.now(), event, uid, capture, forward });
  }
}

function answer(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(`${JSON.stringify(body)}\n`);
}
