// Sends each lifecycle change as a signed delivery to every --webhook-url: a POST of the exact bytes
// that were signed, retried with backoff when the receiver fails, one log line per attempt.
// Deliveries to one URL go one at a time, in the order the changes happened: a receiver that starts
// late (or fails for a while) then gets `booking.created` before `booking.confirmed`, not after it.
import { setTimeout as sleep } from 'node:timers/promises';
import { EVENT_HEADER, SIGNATURE_HEADER, signatureHeader, type EventName } from '../webhook/signature';
import { post as postRequest } from '../webhook/post';
import { schemeNamed, type Scheme, type SchemeName } from '../webhook/schemes/index';
import { shapeBody } from '../webhook/schemes/payloads';
import { deliverySigner } from '../webhook/schemes/sign';
import { DEFAULT_RETRY_DELAYS_MS } from './retry-delays';

export interface WebhookSenderOptions {
  urls: string[];
  secret: string;
  /** Waits before the 2nd, 3rd… attempt; its length is the number of retries. */
  retryDelaysMs?: number[];
  /** Per attempt. */
  timeoutMs?: number;
  /** Successful attempts (silenced by -q). */
  log?: (line: string) => void;
  /** Failed attempts, even when quiet: a receiver that fails is worth knowing about. */
  warn?: (line: string) => void;
  /** Sign in this scheme, bodies in its shape (`booking sandbox --scheme`); the seed's when absent. */
  scheme?: SchemeName;
}

/** Deliveries one URL may have waiting behind the one under way; more are dropped, with a warning. */
export const MAX_WAITING = 100;

export class WebhookSender {
  private readonly inflight = new Set<Promise<void>>();
  /** Per URL, the last delivery queued: the next one starts when it has settled. */
  private readonly queues = new Map<string, Promise<void>>();
  /** Per URL, how many deliveries are queued or under way. */
  private readonly counts = new Map<string, number>();
  private readonly closing = new AbortController();

  /** Another scheme than the seed's: it and its signer (a secret that is no key of it throws UsageError here). */
  private readonly other: { scheme: Scheme; sign: (body: Uint8Array, event: string) => string[] } | undefined;

  constructor(private readonly opts: WebhookSenderOptions) {
    if (opts.scheme !== undefined && opts.scheme !== 'service') {
      const scheme = schemeNamed(opts.scheme);
      const secret = { label: '--webhook-secret', bytes: Buffer.from(opts.secret) };
      this.other = { scheme, sign: deliverySigner(scheme, secret, () => new Date()) };
    }
  }

  /** Starts delivering body to every URL; returns at once. */
  send(event: EventName, body: string): void {
    if (this.closing.signal.aborted) return;
    const bytes = Buffer.from(this.other ? shapeBody(this.other.scheme, body) : body, 'utf8');
    for (const url of this.opts.urls) {
      // A receiver down for long would otherwise get an hour of stale changes in a burst when it is back.
      const count = this.counts.get(url) ?? 0;
      if (count > MAX_WAITING) {
        this.opts.warn?.(
          `${new Date().toISOString()} webhook ${event} ${url} dropped (${MAX_WAITING} deliveries already waiting for this receiver)`,
        );
        continue;
      }
      this.counts.set(url, count + 1);
      const previous = this.queues.get(url) ?? Promise.resolve();
      const p = previous
        .then(() => this.deliver(url, event, bytes))
        .finally(() => {
          this.inflight.delete(p);
          this.counts.set(url, this.counts.get(url)! - 1);
          if (this.queues.get(url) === p) this.queues.delete(url);
        });
      this.queues.set(url, p);
      this.inflight.add(p);
    }
  }

  /** Resolves when every delivery started so far has succeeded or given up. */
  async settled(): Promise<void> {
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
  }

  /** Abandons deliveries in flight and waiting retries. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.settled();
  }

  private async deliver(url: string, event: EventName, bytes: Buffer): Promise<void> {
    if (this.closing.signal.aborted) return;
    const delays = this.opts.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    const attempts = delays.length + 1;
    const base = { 'content-type': 'application/json', 'content-length': String(bytes.length), 'user-agent': 'booking-sandbox' };
    // Signed once: every attempt carries the same bytes and headers, as a sender's retry does.
    const headers: Record<string, string> = this.other
      ? { ...base, ...Object.fromEntries(pairs(this.other.sign(bytes, event))) }
      : { ...base, [SIGNATURE_HEADER]: signatureHeader(this.opts.secret, bytes), [EVENT_HEADER]: event };
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const outcome = await post(url, headers, bytes, this.opts.timeoutMs ?? 5_000, this.closing.signal);
      if (this.closing.signal.aborted) return;
      const line = `${new Date().toISOString()} webhook ${event} ${url} ${outcome} (attempt ${attempt}/${attempts}`;
      if (typeof outcome === 'number' && outcome >= 200 && outcome < 300) {
        this.opts.log?.(`${line})`);
        return;
      }
      if (attempt === attempts) {
        this.opts.warn?.(`${line}, giving up)`);
        return;
      }
      const wait = delays[attempt - 1]!;
      this.opts.warn?.(`${line}, retrying in ${wait / 1000}s)`);
      await sleep(wait, undefined, { signal: this.closing.signal }).catch(() => undefined);
      if (this.closing.signal.aborted) return;
    }
  }
}

/** A flat name/value list as pairs. */
function pairs(flat: string[]): [string, string][] {
  const out: [string, string][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

/** The response status, or the error code when there was none (ECONNREFUSED, timeout…). */
async function post(
  url: string,
  headers: Record<string, string>,
  body: Buffer,
  timeoutMs: number,
  closing: AbortSignal,
): Promise<number | string> {
  try {
    // agent: false: a fresh connection per attempt, none left open to keep the process alive. A signal
    // of its own per attempt: the shared one gets no listener for each (no MaxListeners warning).
    const signal = AbortSignal.any([closing]);
    const res = await postRequest(new URL(url), Object.entries(headers).flat(), body, { timeoutMs, signal, agent: false });
    return res.status;
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return e.code === 'ETIMEDOUT' ? 'timeout' : (e.code ?? e.message);
  }
}
