// `webhook send --scenario NAME|FILE`: an ordered series of deliveries for one booking, with one booking
// uid, a fresh event id per delivery, and times that follow the lifecycle of the service's document:
// created (pending), confirmed, rescheduled (the old time in data.previous, the meeting one day later
// each time), cancelled, completed (sent when the meeting's end has passed) and no_show.flagged.
// The series is dated in the past: made a week ago, one step an hour after the other, the meeting
// (after its reschedules) yesterday 09:00-09:30 UTC, completed at its end, a no-show flagged 15
// minutes later. A FILE is a JSON list of steps: an event name, or {"event": NAME, "set": [PATH=VALUE…]}.
import { closeSync, existsSync, readFileSync } from 'node:fs';
import type { Context } from '../../../context';
import { CliError, UsageError } from '../../../base/errors';
import { EVENTS, SCENARIOS, type EventName } from '../../../webhook/events';
import { unreadable } from '../../../base/input';
import { openInput } from '../../../webhook/input';
import { deliveryBody, freshId, sampleBooking } from '../../../webhook/payload';
import { visible } from '../../../webhook/text';
import { applySets, parseSet, type SetField } from './set';

/** A scenario file's bounds: the steps of a test, not a load test. */
const MAX_STEPS = 1000;
const MAX_FILE_BYTES = 1024 * 1024;

interface Step {
  event: EventName;
  sets: SetField[];
}

export interface Scenario {
  /** The name, or the file's path. */
  name: string;
  steps: Step[];
}

/** NAME (a built-in scenario) or FILE; a bad file is a usage error naming the step. */
export function loadScenario(value: string, ctx: Pick<Context, 'io'>): Scenario {
  const named = SCENARIOS[value];
  if (named) return { name: value, steps: named.map((event) => ({ event, sets: [] })) };
  const names = Object.keys(SCENARIOS).join(', ');
  if (existsSync(value) || value.includes('/') || value.endsWith('.json'))
    return { name: value, steps: parseSteps(readScenarioFile(value, ctx), value) };
  throw new UsageError(`--scenario "${visible(value)}" is not a scenario (${names}) nor a file (a path, such as ./steps.json).`);
}

function readScenarioFile(path: string, ctx: Pick<Context, 'io'>): string {
  const input = openInput(ctx.io, path, { bytes: MAX_FILE_BYTES, bound: 'a scenario (a list of steps) may be' });
  if (input.kind !== 'file') throw new UsageError(`--scenario ${visible(path)}: give a regular file.`);
  try {
    return readFileSync(input.fd, 'utf8');
  } catch (err) {
    throw err instanceof CliError ? err : unreadable(path, err);
  } finally {
    closeSync(input.fd);
  }
}

function parseSteps(text: string, file: string): Step[] {
  const where = `--scenario ${visible(file)}`;
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${where} is not JSON: ${(err as Error).message}.`);
  }
  if (!Array.isArray(list) || list.length === 0)
    throw new UsageError(
      `${where}: expected a JSON list of steps, such as ["booking.created", {"event": "booking.cancelled", "set": ["data.booking.status=cancelled"]}].`,
    );
  if (list.length > MAX_STEPS) throw new UsageError(`${where} has ${list.length} steps: at most ${MAX_STEPS}.`);
  return list.map((raw, i) => {
    const bad = (why: string) => new UsageError(`${where}, step ${i + 1}: ${why}`);
    const step = typeof raw === 'string' ? { event: raw } : raw;
    if (step === null || typeof step !== 'object' || Array.isArray(step))
      throw bad('expected an event name or {"event": NAME, "set": [PATH=VALUE…]}.');
    const { event, set, ...other } = step as { event?: unknown; set?: unknown };
    const extra = Object.keys(other);
    if (extra.length) throw bad(`unknown field "${visible(extra[0]!)}" (a step has "event" and "set").`);
    if (typeof event !== 'string' || !(EVENTS as readonly string[]).includes(event))
      throw bad(`unknown event ${typeof event === 'string' ? `"${visible(event)}"` : 'missing'}: one of ${EVENTS.join(', ')}.`);
    if (set !== undefined && !(Array.isArray(set) && set.every((s) => typeof s === 'string')))
      throw bad('"set" is a list of "PATH=VALUE" texts, as --set takes them.');
    try {
      return { event: event as EventName, sets: ((set ?? []) as string[]).map(parseSet) };
    } catch (err) {
      throw bad((err as Error).message);
    }
  });
}

export interface Delivery {
  /** 1-based position in the scenario. */
  step: number;
  event: EventName;
  /** The event id (the body's "id"). */
  id: string;
  body: Buffer;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * The scenario's bodies, dated relative to `now`; `sets` (from --set) apply to every step before its
 * own. `shape` puts each body in a scheme's shape (send --scheme) before the sets apply.
 */
export function buildSeries(scenario: Scenario, sets: SetField[], now: Date, shape: (json: string) => string = (j) => j): Delivery[] {
  const uid = freshId('bk_');
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const moves = scenario.steps.filter((s) => s.event === 'booking.rescheduled').length;
  let start = today - DAY + 9 * HOUR - moves * DAY;
  let at = today - 7 * DAY + 10 * HOUR - HOUR;
  return scenario.steps.map((step, i) => {
    const iso = (ms: number) => new Date(ms).toISOString();
    let previous: { start: string; end: string } | undefined;
    if (step.event === 'booking.rescheduled') {
      previous = { start: iso(start), end: iso(start + 30 * MINUTE) };
      start += DAY;
    }
    const end = start + 30 * MINUTE;
    const before = at;
    at += HOUR;
    if (step.event === 'booking.completed') at = Math.max(at, end);
    // 15 minutes after the end (not an hour after the step before it, which is the end when completed).
    if (step.event === 'no_show.flagged') at = Math.max(before + MINUTE, end + 15 * MINUTE);
    const id = freshId('evt_');
    const json = deliveryBody(step.event, sampleBooking(uid, step.event, iso(start), iso(end)), { id, createdAt: iso(at), previous });
    let body: Buffer = Buffer.from(shape(json));
    try {
      body = applySets(body, [...sets, ...step.sets]);
    } catch (err) {
      if (!(err instanceof CliError)) throw err;
      throw new UsageError(`--scenario ${visible(scenario.name)}, step ${i + 1} (${step.event}): ${err.message}`);
    }
    return { step: i + 1, event: step.event, id, body };
  });
}
