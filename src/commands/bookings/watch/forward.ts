// --forward-to: each rebuilt event (rebuilt.ts) POSTed to the receiver as the service would have sent
// it, signed with the endpoint's secret, and marked `X-Booking-Rebuilt: watch`. --scheme signs and
// shapes it as another sender would (src/webhook/schemes/: Cal.com's triggerEvent, Stripe's
// Stripe-Signature, Standard Webhooks' webhook-id, which is the rebuilt event's id). A delivery
// without a 2xx answer is sent again, the same bytes (and signature, but for a timestamped scheme's,
// made afresh each attempt as its sender does), after each wait of the schedule (the
// sandbox's: 1, 2, 4, 8 s, five attempts; --retry-delays changes it), every wait through pause().
// The caller (the Outbox, below) learns whether the receiver took it: only then does it leave the
// queue. Also here: the flags' checks (forwardingOf).
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { InterruptedError, UsageError } from '../../../base/errors';
import { pause, type Sleep } from '../../../http/wait';
import { parseHttpUrl, post } from '../../../webhook/post';
import { schemeNamed, type Scheme } from '../../../webhook/schemes/index';
import { shapeBody } from '../../../webhook/schemes/payloads';
import { deliverySigner } from '../../../webhook/schemes/sign';
import { resolveSigningSecret } from '../../webhook/shared/secret';
import { DEFAULT_RETRY_DELAYS_MS } from '../../../sandbox/retry-delays';
import type { BookingsWatchOptions } from './options';
import type { EventName } from '../../../webhook/events';
import { rebuiltBody, type RebuiltEvent } from './rebuilt';

/** The header that tells a rebuilt delivery from one the service sent. */
const REBUILT_HEADER = 'X-Booking-Rebuilt';

interface ForwardOptions {
  url: URL;
  /** The signing scheme (--scheme), and its signer (keyed with the secret). */
  scheme: Scheme;
  sign: ReturnType<typeof deliverySigner>;
  retryDelaysMs: readonly number[];
  /** --no-retry: one attempt, and a failed delivery is not sent again. */
  noRetry?: boolean;
  /** Per attempt, the whole exchange. */
  timeoutMs: number;
  signal: AbortSignal;
  sleep?: Sleep;
  /** One line per delivery that got its 2xx (hidden by -q). */
  report(line: string): void;
  /** One line per failed attempt (always shown). */
  warn(line: string): void;
}

export interface Forwarder {
  /** true once the receiver answered 2xx; false when every attempt failed. Ctrl-C: InterruptedError. */
  deliver(p: Pending): Promise<boolean>;
}

function createForwarder(opts: ForwardOptions): Forwarder {
  const attempts = opts.noRetry ? 1 : opts.retryDelaysMs.length + 1;
  return {
    async deliver(e) {
      // The queue holds the service's shape (a --state file outlives a change of --scheme); the
      // scheme's shape is made from it the same way each time.
      const body = Buffer.from(shapeBody(opts.scheme, e.body));
      const base = ['Content-Type', 'application/json', 'Content-Length', String(body.length), 'User-Agent', 'booking-cli watch'];
      let outcome: number | string = '';
      for (let attempt = 1; attempt <= attempts; attempt++) {
        // Signed per attempt: a timestamped scheme's receiver refuses a stale timestamp.
        const headers = [...base, ...opts.sign(body, e.event, e.id), REBUILT_HEADER, 'watch'];
        outcome = await attemptOnce(opts, headers, body);
        const line = `${e.event} ${e.uid} (${e.id}) → ${opts.url.origin}: ${outcome}`;
        if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
          opts.report(`forwarded ${line}`);
          return true;
        }
        if (attempt === attempts) break;
        const wait = opts.retryDelaysMs[attempt - 1]!;
        opts.warn(`warning: forwarding ${line} (attempt ${attempt}/${attempts}), retrying in ${wait / 1000}s`);
        await pause(wait, opts.signal, { sleep: opts.sleep, onCapped: opts.warn, what: 'a retry wait' });
      }
      opts.warn(
        `warning: forwarding ${e.event} ${e.uid} (${e.id}) failed ${attempts === 1 ? 'once' : `${attempts} times`} (last: ${outcome}); ${opts.noRetry ? 'not sent again (--no-retry).' : 'it waits for the next poll.'}`,
      );
      return false;
    },
  };
}

/** The receiver's status, or why there was none (the error code, "timeout"). */
async function attemptOnce(opts: ForwardOptions, headers: string[], body: Buffer): Promise<number | string> {
  if (opts.signal.aborted) throw new InterruptedError();
  try {
    const res = await post(opts.url, headers, body, { timeoutMs: opts.timeoutMs, signal: opts.signal, agent: false });
    return res.status;
  } catch (err) {
    if (opts.signal.aborted) throw new InterruptedError();
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ETIMEDOUT' ? 'no answer within --timeout' : (e.code ?? e.message);
  }
}

// --forward-to and its companions, checked before anything is asked of the service: the receiver's
// URL, the signing secret (--secret-file, BOOKING_WEBHOOK_SECRET, a prompt; see webhook/secret.ts)
// as a key of the scheme, the retry schedule. A companion given without --forward-to means nothing: exit 2.
export async function forwardingOf(
  opts: BookingsWatchOptions,
  ctx: Context,
): Promise<{ forwarder: Forwarder; noRetry: boolean } | undefined> {
  if (opts.forwardTo === undefined) {
    const stray = [
      opts.secret !== undefined && '--secret',
      opts.secretFile !== undefined && '--secret-file',
      opts.retryDelays !== undefined && '--retry-delays',
      opts.retry === false && '--no-retry',
      opts.scheme !== 'service' && '--scheme',
    ].find(Boolean);
    if (stray) throw new UsageError(`${stray} is for --forward-to URL: without it nothing is forwarded.`);
    return undefined;
  }
  if (opts.retry === false && opts.retryDelays !== undefined)
    throw new UsageError('--no-retry and --retry-delays are alternatives: give one.');
  const url = parseHttpUrl(opts.forwardTo, '--forward-to');
  const scheme = schemeNamed(opts.scheme);
  // Keyed now: a secret that is no key of the scheme (a whsec_ that is not base64) is exit 2 at start.
  const sign = deliverySigner(scheme, await resolveSigningSecret(opts, ctx), () => ctx.now());
  const noRetry = opts.retry === false;
  const forwarder = createForwarder({
    url,
    scheme,
    sign,
    retryDelaysMs: opts.retryDelays ?? DEFAULT_RETRY_DELAYS_MS,
    noRetry,
    timeoutMs: ctx.globals.timeoutMs,
    signal: ctx.signal,
    sleep: ctx.sleep,
    report: (line) => hint(ctx, line),
    warn: (line) => void ctx.io.stderr.write(`${line}\n`),
  });
  return { forwarder, noRetry };
}

// The deliveries --forward-to still owes the receiver. A poll turns each change into its rebuilt
// deliveries (rebuilt.ts) and queues them here, each as the exact bytes it is sent as (so a retry,
// in this run or the next, sends the same bytes and signature); the snapshot moves on at once, and a
// delivery leaves the queue only when the receiver answered 2xx (or --no-retry said not to wait for
// that). The queue is saved in --state with the snapshot: a receiver that is down while watch polls
// gets every change each poll saw, in order, when it is back, however many runs later. Its bytes count
// against --max-state as the snapshot's do.
export interface Pending {
  id: string;
  event: EventName;
  uid: string;
  /** The delivery's body, as it is signed and sent. */
  body: string;
}

export class Outbox {
  readonly queue: Pending[] = [];
  /** Counts what entered or left the queue: --state is written again when it moved. */
  version = 0;

  constructor(private readonly charge: (bytes: number) => void) {}

  get size(): number {
    return this.queue.length;
  }

  add(e: RebuiltEvent, at: string): void {
    this.push({ id: e.id, event: e.event, uid: e.uid, body: rebuiltBody(e, at) });
  }

  /** One from a state file, or a new one. */
  push(p: Pending): void {
    this.charge(p.body.length);
    this.queue.push(p);
    this.version++;
  }

  /**
   * Sends what is queued, in order, until the queue is empty or a delivery fails (the rest then waits
   * for the next poll: the order of one booking's events is kept). With noRetry a failed one is dropped.
   */
  async flush(forwarder: Forwarder, noRetry: boolean): Promise<boolean> {
    while (this.queue.length > 0) {
      const head = this.queue[0]!;
      if (!(await forwarder.deliver(head)) && !noRetry) return false;
      this.queue.shift();
      this.charge(-head.body.length);
      this.version++;
    }
    return true;
  }
}
