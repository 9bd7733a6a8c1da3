// The one line `listen` prints per delivery: time, event, verdict, booking uid, forward status.
// Terminal: readable and coloured; tsv (piped): time, event, verdict, uid, forward, reason, capture;
// json/ndjson: one object per line.
import type { Context } from '../context';
import { outputFormat } from '../context';
import type { ForwardResult } from './forward';
import type { Verdict } from './verdict';
import { jsonText, paint, visible } from './text';

export interface DeliveryRecord {
  time: Date;
  method: string;
  path: string;
  verdict: Verdict;
  uid: string | null;
  capture: string | null;
  forward: ForwardResult | null;
}

export function deliveryLine(ctx: Pick<Context, 'io' | 'globals'>, d: DeliveryRecord): string {
  const { verdict: v } = d;
  const format = outputFormat(ctx);
  if (format === 'json' || format === 'ndjson') {
    return jsonText(
      { time: d.time.toISOString(), event: v.event, authentic: v.authentic, reason: v.reason, uid: d.uid, bytes: v.bytes, method: d.method, path: d.path, capture: d.capture, forward: d.forward },
      false,
    );
  }
  const forward = d.forward === null ? '' : 'status' in d.forward ? String(d.forward.status) : `failed: ${d.forward.error}`;
  if (format === 'tsv') {
    const fields = [d.time.toISOString(), v.event ?? '', v.authentic ? 'authentic' : 'not-authentic', d.uid ?? '', forward, v.reason ?? '', d.capture ?? ''];
    return `${fields.map(visible).join('\t')}\n`;
  }
  const p = paint(ctx.io.color);
  const parts = [p.dim(d.time.toTimeString().slice(0, 8)), v.event === null ? p.dim('(no event)') : visible(v.event), v.authentic ? p.good('✓ authentic') : p.bad('✗ not authentic')];
  if (d.uid !== null) parts.push(visible(d.uid));
  if (d.forward !== null) {
    const ok = 'status' in d.forward && d.forward.status >= 200 && d.forward.status < 300;
    parts.push((ok ? p.good : p.bad)(`→ ${visible(forward)}`));
  }
  const line = parts.join('  ');
  return `${v.reason === null ? line : `${line} — ${visible(v.reason)}`}\n`;
}

const UID_PATHS = [['data', 'booking', 'uid'], ['data', 'uid'], ['booking', 'uid'], ['uid'], ['payload', 'booking', 'uid'], ['payload', 'uid'], ['data', 'object', 'uid']];

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
