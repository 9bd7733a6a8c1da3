// The lines `listen` prints: one per delivery (time, event, verdict, booking uid) as soon as it is
// answered, and, for a forwarded one, one more with the forward's outcome when it comes.
// Terminal: readable and coloured. tsv (piped): time, event, verdict, uid, forward, reason, capture,
// attempt (1 for a first delivery), first capture (of a repeat), the status listen answered,
// where a forward's line has `forwarded` (an answer came; forward is its status) or `forward-failed`
// (reason says why) as its verdict. json/ndjson: one object per line, `type` "delivery" or "forward".
// The shaping flags (--jq, --json FIELDS, --fields) apply to each line (src/output/records.ts).
import type { Context } from '../../../context';
import type { ForwardResult } from './forward';
import type { Verdict } from '../../../webhook/verdict';
import { paint, visible } from '../../../webhook/text';
import type { Paint } from '../../../output/style';
import { createRecordWriter, type RecordWriter } from '../../../output/records';
import type { Attempt } from './repeats';
import { basename } from 'node:path';
import { formatDuration } from '../../../base/words';
import { clockIn, isoInZone } from '../../../output/time-zone';

interface DeliveryRecord {
  time: Date;
  method: string;
  path: string;
  verdict: Verdict;
  uid: string | null;
  capture: string | null;
  /** Which attempt of a delivery this is (repeats.ts). */
  attempt?: Attempt;
  /** The status listen answered: 200, 401 (not authentic), --respond's, 500 (could not be kept). */
  answered?: number;
}

interface ForwardRecord {
  /** When the forward's outcome came. */
  time: Date;
  event: string | null;
  uid: string | null;
  capture: string | null;
  forward: ForwardResult;
}

type Ctx = Pick<Context, 'io' | 'globals'>;

export type ListenRecord = DeliveryRecord | ForwardRecord;

const isDelivery = (r: ListenRecord): r is DeliveryRecord => 'verdict' in r;

const KEYS = [
  'type',
  'time',
  'event',
  'authentic',
  'reason',
  'uid',
  'bytes',
  'method',
  'path',
  'capture',
  'forward',
  'secret',
  'status',
  'attempt',
  'first_capture',
  'since_previous_ms',
  'since_first_ms',
  'scheme',
] as const;

/**
 * The writer of listen's lines, through the output layer (src/output/records.ts): -o, --json
 * [FIELDS], --jq and --fields apply to every line; a --fields typo is exit 2 before listening.
 */
export function listenWriter(ctx: Ctx): Promise<RecordWriter<ListenRecord>> {
  const p = paint(ctx.io.color);
  // --tz: the terminal's clock and tsv's time in that zone (json keeps UTC, as sent).
  const zone = ctx.globals.tz;
  const clock = (t: Date) => p.dim(clockIn(t, zone));
  const iso = (t: Date) => (zone === undefined ? t.toISOString() : isoInZone(t.toISOString(), zone)!);
  return createRecordWriter(ctx, 'stream', {
    keys: KEYS,
    data: (r) => (isDelivery(r) ? deliveryData(r) : forwardData(r)),
    line: (r) => (isDelivery(r) ? deliveryLine(r, p, clock) : forwardLine(r, p, clock)),
    tsv: (r) => (isDelivery(r) ? deliveryTsv(r, iso) : forwardTsv(r, iso)),
  });
}

function deliveryData(d: DeliveryRecord): Record<string, unknown> {
  const { verdict: v } = d;
  return {
    type: 'delivery',
    time: d.time.toISOString(),
    event: v.event,
    authentic: v.authentic,
    reason: v.reason,
    uid: d.uid,
    bytes: v.bytes,
    method: d.method,
    path: d.path,
    capture: d.capture,
    ...(d.answered === undefined ? {} : { status: d.answered }),
    // With several secrets (a rotation): the one that matched.
    ...(v.secret !== undefined && { secret: v.secret }),
    ...(d.attempt ? attemptFields(d.attempt) : {}),
    // With --scheme: the scheme each delivery was verified in.
    ...(v.scheme !== undefined && { scheme: v.scheme }),
  };
}

function deliveryTsv(d: DeliveryRecord, iso: (t: Date) => string): string[] {
  const { verdict: v } = d;
  return [
    iso(d.time),
    v.event ?? '',
    v.authentic ? 'authentic' : 'not-authentic',
    d.uid ?? '',
    '',
    v.reason ?? '',
    d.capture ?? '',
    // Appended, so the columns before keep their places: attempt, first capture, answered status.
    String(d.attempt?.n ?? 1),
    d.attempt && d.attempt.n > 1 ? (d.attempt.first ?? '') : '',
    d.answered === undefined ? '' : String(d.answered),
    ...(v.secret !== undefined ? [v.secret ?? ''] : []),
    ...(v.scheme !== undefined ? [v.scheme] : []),
  ];
}

function deliveryLine(d: DeliveryRecord, p: Paint, clock: (t: Date) => string): string {
  const { verdict: v } = d;
  const parts = [clock(d.time), eventText(v.event, p), v.authentic ? p.good('✓ authentic') : p.bad('✗ not authentic')];
  if (d.uid !== null) parts.push(visible(d.uid));
  if (v.secret) parts.push(p.dim(`secret ${visible(v.secret)}`));
  if (v.scheme !== undefined) parts.push(p.dim(`scheme ${v.scheme}`));
  if (d.answered !== undefined) parts.push((d.answered >= 200 && d.answered < 300 ? p.good : p.bad)(`→ ${d.answered}`));
  if (d.attempt && d.attempt.n > 1) parts.push(p.dim(attemptText(d.attempt)));
  const line = parts.join('  ');
  return v.reason === null ? line : `${line} — ${visible(v.reason)}`;
}

function forwardData(f: ForwardRecord): Record<string, unknown> {
  return { type: 'forward', time: f.time.toISOString(), event: f.event, uid: f.uid, capture: f.capture, forward: f.forward };
}

function forwardTsv(f: ForwardRecord, iso: (t: Date) => string): string[] {
  // The columns keep their meaning on every line: a status in the status column, words in the reason's.
  const [verdict, status, reason] =
    'status' in f.forward ? ['forwarded', String(f.forward.status), ''] : ['forward-failed', '', f.forward.error];
  return [iso(f.time), f.event ?? '', verdict, f.uid ?? '', status, reason, f.capture ?? '', '', '', ''];
}

function forwardLine(f: ForwardRecord, p: Paint, clock: (t: Date) => string): string {
  const outcome = 'status' in f.forward ? String(f.forward.status) : `failed: ${f.forward.error}`;
  const ok = 'status' in f.forward && f.forward.status >= 200 && f.forward.status < 300;
  const parts = [clock(f.time), eventText(f.event, p)];
  if (f.uid !== null) parts.push(visible(f.uid));
  parts.push((ok ? p.good : p.bad)(`→ ${visible(outcome)}`));
  return parts.join('  ');
}

/** `attempt 3 of 20261125T093607.608Z-0001-booking.created.http, +2 s`: the spacing since the attempt before. */
function attemptText(a: Attempt): string {
  const first = a.first === null ? `the delivery at ${a.firstAt.toTimeString().slice(0, 8)}` : basename(a.first);
  return `attempt ${a.n} of ${visible(first)}, +${formatDuration(a.sincePreviousMs)}`;
}

function attemptFields(a: Attempt): Record<string, unknown> {
  return {
    attempt: a.n,
    first_capture: a.n > 1 ? a.first : null,
    since_previous_ms: a.sincePreviousMs,
    since_first_ms: a.sinceFirstMs,
  };
}

function eventText(event: string | null, p: Paint): string {
  return event === null ? p.dim('(no event)') : visible(event);
}

const UID_PATHS = [
  ['data', 'booking', 'uid'],
  ['data', 'uid'],
  ['booking', 'uid'],
  ['uid'],
  ['payload', 'booking', 'uid'],
  ['payload', 'uid'],
  ['data', 'object', 'uid'],
];

/** The booking uid of a JSON delivery, wherever the common shapes keep it; null when none. */
export function bookingUid(body: Buffer): string | null {
  if (body.length > 1024 * 1024) return null;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    return null;
  }
  for (const path of UID_PATHS) {
    let node: unknown = value;
    for (const key of path) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    if (typeof node === 'string' || typeof node === 'number') return String(node);
  }
  return null;
}
