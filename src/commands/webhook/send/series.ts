// `webhook send --scenario`: the scenario's deliveries (scenario.ts) signed once each, then sent
// one after the other as a sender that breaks receivers' assumptions would: each --duplicate N times,
// byte for byte (a retry), in a --shuffle'd order (seeded, so a run can be repeated), --delay apart.
// One line per delivery (the receiver's status and how long it took), a summary on stderr, exit 1
// when any delivery got no 2xx answer. Ctrl-C ends the run at once (exit 130).
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Context } from '../../../context';
import { ExitCode, FailureError, InterruptedError, UsageError } from '../../../base/errors';
import { schemeNamed, type SchemeName } from '../../../webhook/schemes/index';
import { schemeEvent, shapeBody } from '../../../webhook/schemes/payloads';
import { deliverySigner } from '../../../webhook/schemes/sign';
import { parseHttpUrl, postRaw } from '../../../webhook/post';
import { paint, visible } from '../../../webhook/text';
import { createRecordWriter } from '../../../output/records';
import { seededRng } from '../../../sandbox/random';
import { formatDuration } from '../../../base/words';
import { resolveSigningSecret, type SecretOptions } from '../shared/secret';
import { buildSeries, loadScenario, type Delivery } from './scenario';
import { parseSet } from './set';

export interface SeriesOptions extends SecretOptions {
  url: string;
  scenario: string;
  set?: string[];
  duplicate?: number;
  shuffle?: boolean;
  seed?: string;
  /** Milliseconds between deliveries. */
  delay?: number;
  /** Sign in this scheme (the seed's when absent). */
  scheme?: SchemeName;
}

interface Sent extends Omit<Delivery, 'event'> {
  /** The event as the scheme names it (Cal.com's BOOKING_CREATED). */
  event: string;
  copy: number;
  /** The scheme's headers for this delivery: the same on each copy, as a sender's retry carries them. */
  signed: string[];
}

export async function sendSeries(opts: SeriesOptions, ctx: Context): Promise<number> {
  const url = parseHttpUrl(opts.url, 'the receiver URL');
  if (opts.seed !== undefined && !opts.shuffle) throw new UsageError('--seed orders a --shuffle: give --shuffle too.');
  const copies = opts.duplicate ?? 1;
  const scenario = loadScenario(opts.scenario, ctx);
  const scheme = schemeNamed(opts.scheme ?? 'service');
  const series = buildSeries(scenario, (opts.set ?? []).map(parseSet), ctx.now(), (json) => shapeBody(scheme, json));
  const sign = deliverySigner(scheme, await resolveSigningSecret(opts, ctx), () => ctx.now());
  let queue: Sent[] = series.flatMap((d) => {
    const signed = sign(d.body, d.event);
    const event = schemeEvent(scheme, d.event);
    return Array.from({ length: copies }, (_, c) => ({ ...d, event, copy: c + 1, signed }));
  });
  const seed = opts.seed ?? String(randomInt(1_000_000));
  if (opts.shuffle) queue = shuffled(queue, seed);

  const p = paint(ctx.io.color);
  // Through the output layer, as every record: -o, --json [FIELDS], --jq and --fields apply.
  const out = await createRecordWriter<Row>(ctx, 'many', {
    keys: ROW_KEYS,
    data: (r) => ({ ...r }),
    line: (r) => humanLine(p, r, series.length, copies),
    // The table line's order: status, step, event, copy, time taken, id (then the error, if any).
    tsv: (r) => [r.status, r.step, r.event, r.copy, r.ms, r.id, r.error ?? ''],
  });
  let failed = 0;
  for (let i = 0; i < queue.length; i++) {
    if (i > 0 && opts.delay) await sleep(opts.delay, undefined, { signal: ctx.signal }).catch(interrupted);
    const d = queue[i]!;
    const outcome = await deliver(url, d, ctx);
    if (!outcome.ok) failed++;
    const record = {
      step: d.step,
      event: d.event,
      copy: d.copy,
      id: d.id,
      status: outcome.status,
      ok: outcome.ok,
      ms: outcome.ms,
      ...(outcome.error ? { error: outcome.error } : {}),
    };
    await out.write(record);
    // Each line as its delivery is answered: a series with --delay runs for minutes.
    out.flush();
  }
  await out.end();

  const counts = `${queue.length} ${queue.length === 1 ? 'delivery' : 'deliveries'} (${series.length} steps${copies > 1 ? ` × ${copies}` : ''})`;
  const order = opts.shuffle ? `, shuffled (--seed ${seed} repeats the order)` : '';
  ctx.io.stderr.write(
    `${scenario.name}: ${counts}${order}: ${queue.length - failed} answered 2xx${failed ? `, ${failed} did not` : ''}.\n`,
  );
  return failed ? ExitCode.FAILURE : ExitCode.OK;
}

function interrupted(): never {
  throw new InterruptedError();
}

interface Outcome {
  status: number | null;
  ok: boolean;
  ms: number;
  error?: string;
}

/** One POST; a receiver that cannot be reached is an outcome of the series, not the end of it. */
async function deliver(url: URL, d: Sent, ctx: Context): Promise<Outcome> {
  const headers = ['Content-Type', 'application/json', 'User-Agent', 'booking-cli'];
  headers.push(...d.signed, 'Content-Length', String(d.body.length));
  const started = performance.now();
  try {
    const res = await postRaw(url, headers, d.body, { timeoutMs: ctx.globals.timeoutMs, signal: ctx.signal });
    return { status: res.status, ok: res.status >= 200 && res.status < 300, ms: elapsed(started) };
  } catch (err) {
    if (!(err instanceof FailureError)) throw err;
    return { status: null, ok: false, ms: elapsed(started), error: err.message };
  }
}

const elapsed = (since: number) => Math.round(performance.now() - since);

/** Fisher-Yates with the seeded generator: the same --seed gives the same order. */
function shuffled<T>(items: T[], seed: string): T[] {
  const rng = seededRng(seed, 'shuffle');
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Row = { step: number; event: string; copy: number; id: string; status: number | null; ok: boolean; ms: number; error?: string };

const ROW_KEYS = ['step', 'event', 'copy', 'id', 'status', 'ok', 'ms', 'error'] as const;

function humanLine(p: ReturnType<typeof paint>, r: Row, steps: number, copies: number): string {
  const status = r.status === null ? 'failed' : String(r.status);
  const parts = [
    r.ok ? p.good(`✓ ${status}`) : p.bad(`✗ ${status}`),
    `${r.step}/${steps}`,
    visible(r.event),
    ...(copies > 1 ? [`copy ${r.copy}/${copies}`] : []),
    p.dim(formatDuration(r.ms)),
    p.dim(r.id),
  ];
  return `${parts.join('  ')}${r.error ? ` — ${visible(r.error)}` : ''}`;
}

/** Options that mean nothing with --scenario: refused rather than ignored. */
export function checkSeriesOptions(opts: { event?: string; body?: string; request?: string; printCurl?: boolean }): void {
  refuseGiven(
    [
      ['--event', opts.event],
      ['--body', opts.body],
      ['--request', opts.request],
      ['--print-curl', opts.printCurl],
    ],
    (flag) => `${flag} is not used with --scenario: the scenario gives each step's event and body.`,
  );
}

/** The series options without --scenario. */
export function checkSingleOptions(opts: Partial<SeriesOptions>): void {
  refuseGiven(
    [
      ['--duplicate', opts.duplicate],
      ['--shuffle', opts.shuffle],
      ['--seed', opts.seed],
      ['--delay', opts.delay],
    ],
    (flag) => `${flag} is used with --scenario NAME|FILE only.`,
  );
}

function refuseGiven(flags: [string, unknown][], why: (flag: string) => string): void {
  for (const [flag, given] of flags) if (given !== undefined && given !== false) throw new UsageError(why(flag));
}
