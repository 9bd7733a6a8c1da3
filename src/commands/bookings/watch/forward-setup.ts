// --forward-to and its companions, checked before anything is asked of the service: the receiver's
// URL, the signing secret (--secret-file, BOOKING_WEBHOOK_SECRET, a prompt; see webhook/secret.ts),
// the scheme, the retry schedule. A companion given without --forward-to means nothing: exit 2.
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { UsageError } from '../../../errors';
import { parseHttpUrl } from '../../../webhook/post';
import { resolveSecret } from '../../webhook/secret';
import type { BookingsWatchOptions } from '../watch';
import { createForwarder, DEFAULT_RETRY_DELAYS_MS, type Forwarder } from './forward';

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
    ].find(Boolean);
    if (stray) throw new UsageError(`${stray} is for --forward-to URL: without it nothing is forwarded.`);
    return undefined;
  }
  if (opts.retry === false && opts.retryDelays !== undefined)
    throw new UsageError('--no-retry and --retry-delays are alternatives: give one.');
  const url = parseHttpUrl(opts.forwardTo, '--forward-to');
  const secret = await resolveSecret(opts, ctx);
  const noRetry = opts.retry === false;
  const forwarder = createForwarder({
    url,
    secret,
    scheme: opts.scheme,
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
