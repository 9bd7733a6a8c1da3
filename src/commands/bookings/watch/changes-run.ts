// The run of `bookings changes --since STATE_OR_TIME` (changes.ts): one poll of watch's against a
// state file, read only; or, against a time, one walk that reports the bookings created or updated
// since. A value is a state file when a file is there, else a time; neither is exit 2.
import { existsSync } from 'node:fs';
import type { RunResult } from '../../deps';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { FailureError, UsageError } from '../../../base/errors';
import { paginate } from '../../../http/paginate';
import { isPlainObject } from '../../../base/plain-object';
import { calendarTime, durationOption } from '../../../base/options';
import type { BookingsChangesOptions } from './options';
import { pollOnce } from './poll';
import { prepare } from './setup';

const CREATED = ['created_at', 'createdAt', 'created'];
const UPDATED = ['updated_at', 'updatedAt', 'modified_at', 'modifiedAt', 'updated'];

export async function runBookingsChanges(opts: BookingsChangesOptions, ctx: Context): RunResult {
  if (opts.since === undefined) throw new UsageError('--since STATE_OR_TIME is required: a bookings watch --state file, or a time.');
  // Piped without a format asked for: one JSON event a line, for scripts.
  if (ctx.globals.output === undefined && !ctx.io.stdoutIsTTY) ctx = { ...ctx, globals: { ...ctx.globals, output: 'ndjson' } };
  const since = existsSync(opts.since) ? undefined : timeOf(opts.since, ctx.now().getTime());
  const prepared = await prepare(ctx, opts, {
    path: since === undefined ? opts.since : undefined,
    maxBytes: opts.maxState,
    label: 'Comparing',
    flag: '--since',
  });
  // An empty file (touch, or cut to nothing) holds no list to compare with: every booking would be
  // reported as added. watch takes one as a new state file; changes only reads.
  if (since === undefined && prepared.resumedFrom === undefined)
    throw new UsageError(
      `--since ${opts.since} is an empty file, not a saved state: run bookings watch --state ${opts.since} --once first.`,
    );
  const at = ctx.now().toISOString();
  // An empty report says so (on stderr): nothing changed is an answer, not a silence.
  let written = 0;
  const write = prepared.setup.write;
  prepared.setup.write = (event) => {
    written++;
    return write(event);
  };
  if (since === undefined) await pollOnce(prepared.setup, { at, baseline: false, initial: false });
  else await sinceTime(prepared.setup, since, at);
  await prepared.writer.end();
  if (written === 0)
    hint(ctx, `No booking changed since ${since === undefined ? (prepared.resumedFrom ?? opts.since) : new Date(since).toISOString()}.`);
  return 0;
}

/** An ISO time, or a duration ago; a UsageError for anything else. */
function timeOf(value: string, now: number): number {
  const t = calendarTime(value);
  if (t !== undefined) return t;
  try {
    return now - durationOption(366 * 86_400_000)(value);
  } catch {
    // A duration past the bound is not a typo of a file name: the bound is what to say.
    if (/^\s*[\d.]+\s*(ms|s|m|h)?\s*$/i.test(value))
      throw new UsageError(`--since ${value}: further back than a duration may go (8784h, 366 days); give the time instead (2025-06-01).`);
    throw new UsageError(`--since ${value}: no such file, and not a time (2026-11-28T09:00:00Z) or a duration ago (90m, 2h).`);
  }
}

async function sinceTime(setup: Awaited<ReturnType<typeof prepare>>['setup'], since: number, at: string): Promise<void> {
  let dated = false;
  let seen = 0;
  for await (const page of paginate(setup.client, setup.pages).pages()) {
    setup.fields.check(page);
    seen += page.length;
    for (const item of page) {
      if (!isPlainObject(item)) continue;
      const created = timeIn(item, CREATED);
      const updated = timeIn(item, UPDATED);
      if (created === undefined && updated === undefined) continue;
      dated = true;
      const uid = String(item.uid ?? item.id ?? '');
      if (created !== undefined && created >= since) await setup.write({ type: 'added', uid, booking: item, at });
      else if (updated !== undefined && updated >= since) await setup.write({ type: 'updated', uid, booking: item, at });
    }
  }
  if (seen > 0 && !dated)
    throw new FailureError(
      `no booking in the list carries ${CREATED[0]} or ${UPDATED[0]}: a time cannot tell what changed.`,
      'keep a state file instead: booking bookings watch --state FILE --once, then changes --since FILE.',
    );
}

function timeIn(item: Record<string, unknown>, names: readonly string[]): number | undefined {
  for (const name of names) {
    const v = item[name];
    if (typeof v !== 'string') continue;
    const t = Date.parse(v);
    if (!Number.isNaN(t)) return t;
  }
  return undefined;
}
