// --forward-to: each rebuilt event (rebuilt.ts) POSTed to the receiver as the service would have sent
// it, signed with the endpoint's secret, and marked `X-Booking-Rebuilt: watch`. A delivery without a
// 2xx answer is sent again, the same bytes and signature, after each wait of the schedule (the
// sandbox's: 1, 2, 4, 8 s, five attempts; --retry-delays changes it), every wait through pause().
// The caller (outbox.ts) learns whether the receiver took it: only then does it leave the queue.
import { EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from '../../../webhook/signature';
import { post } from '../../../webhook/post';
import { InterruptedError } from '../../../errors';
import { pause, type Sleep } from '../../../http/wait';
import type { Pending } from './outbox';

/** The header that tells a rebuilt delivery from one the service sent. */
const REBUILT_HEADER = 'X-Booking-Rebuilt';
/** The documented schedule of retries (docs/webhooks.md), the sandbox's own. */
export const DEFAULT_RETRY_DELAYS_MS = [1_000, 2_000, 4_000, 8_000];

export interface ForwardOptions {
  url: URL;
  secret: Buffer;
  /** The signing scheme (--scheme): only the service's own for now. */
  scheme: 'service';
  retryDelaysMs: number[];
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

export function createForwarder(opts: ForwardOptions): Forwarder {
  const attempts = opts.noRetry ? 1 : opts.retryDelaysMs.length + 1;
  return {
    async deliver(e) {
      const body = Buffer.from(e.body);
      const headers = [
        'Content-Type',
        'application/json',
        'Content-Length',
        String(body.length),
        'User-Agent',
        'booking-cli watch',
        SIGNATURE_HEADER,
        signatureHeader(opts.secret, body),
        EVENT_HEADER,
        e.event,
        REBUILT_HEADER,
        'watch',
      ];
      let outcome: number | string = '';
      for (let attempt = 1; attempt <= attempts; attempt++) {
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
