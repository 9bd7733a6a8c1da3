// Runs the sandbox until SIGINT/SIGTERM: prints how to reach it (stdout), logs requests, lifecycle
// changes and deliveries (stderr), then closes the server and its timers and exits 0.
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import { hint } from '../../context';
import { escapeControl } from '../../output/escape';
import type { SandboxCmdOptions } from './options';
import { createRecordWriter } from '../../output/records';
import { DEFAULT_WEBHOOK_SECRET } from '../../sandbox/defaults';

const INFO_KEYS = [
  'base_url',
  'api_key',
  'webhook_secret',
  'port',
  'seed',
  'bookings',
  'shape',
  'tick_seconds',
  'webhook_urls',
  'pid',
  'webhook_scheme',
];

export async function runSandbox(opts: SandboxCmdOptions, ctx: Context): RunResult {
  const { startSandbox } = await import('../../sandbox/server');
  // Request lines and webhook targets come from outside: escaped like every human-facing line.
  const err = (line: string) => void ctx.io.stderr.write(`${escapeControl(line)}\n`);
  const sandbox = await startSandbox({
    port: opts.port,
    host: opts.host,
    apiKey: opts.apiKey,
    // The default secret is not base64, which Standard Webhooks needs: the scheme's own default then.
    secret: opts.scheme === 'standard' && opts.webhookSecret === DEFAULT_WEBHOOK_SECRET ? undefined : opts.webhookSecret,
    scheme: opts.scheme,
    bookings: opts.bookings,
    seed: opts.seed,
    webhookUrls: opts.webhookUrl ?? [],
    tickSeconds: opts.tick,
    shape: opts.shape,
    latencyMs: opts.latency,
    failRate: opts.failRate,
    rateLimit: opts.rateLimit,
    retryDelaysMs: opts.retryDelays,
    log: ctx.globals.quiet ? undefined : err,
    warn: err,
  });
  // The sandbox's key is its own to print (as the line and the Try hint do): when BOOKING_API_KEY
  // holds the same key, as after the README's first run, the mask would print `****` for it.
  ctx.io.unmaskSecret(sandbox.apiKey);
  try {
    // A stream of one record: -o json is one line, as the process keeps running and a script waits
    // for the first line; --jq, --json FIELDS and --fields shape it like any record.
    const out = await createRecordWriter(ctx, 'stream', {
      keys: INFO_KEYS,
      data: () => ({
        base_url: sandbox.url,
        api_key: sandbox.apiKey,
        webhook_secret: sandbox.secret,
        port: sandbox.port,
        seed: sandbox.seed,
        bookings: opts.bookings,
        shape: sandbox.shape,
        tick_seconds: opts.tick,
        webhook_urls: opts.webhookUrl ?? [],
        pid: process.pid,
        ...(opts.scheme !== undefined && { webhook_scheme: opts.scheme }),
      }),
      line: () =>
        `Booking sandbox running at ${sandbox.url}\nAPI key:        ${sandbox.apiKey}\nSigning secret: ${sandbox.secret}${opts.scheme === undefined ? '' : `\nSigning scheme: ${opts.scheme}`}`,
    });
    await out.write(undefined);
    if (!isLoopback(opts.host)) err(`warning: listening on ${opts.host}: anyone who can reach it can read the data with the sandbox key.`);
    const targets = opts.webhookUrl?.length ? opts.webhookUrl.join(', ') : 'none (add --webhook-url)';
    const pace = opts.tick > 0 ? `a lifecycle change every ${opts.tick}s` : 'no lifecycle changes (--tick 0)';
    hint(ctx, `seed ${sandbox.seed}, ${opts.bookings} bookings, shape ${sandbox.shape}, ${pace}; webhooks: ${targets}`);
    hint(ctx, `Try: BOOKING_BASE_URL=${sandbox.url} BOOKING_API_KEY=${sandbox.apiKey} booking bookings list`);
    hint(ctx, 'Stop with Ctrl-C.');
    await aborted(ctx.signal);
  } finally {
    await sandbox.close();
  }
  hint(ctx, 'sandbox stopped');
  return 0;
}

function aborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
