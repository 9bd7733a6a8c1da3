// The deliveries the service would have sent for a change watch saw, rebuilt from the booking before
// and after: booking.created for a new booking, booking.rescheduled (with the old start and end) when
// its times moved, booking.confirmed, booking.cancelled and booking.completed when its status became
// that, no_show.flagged when its no_show turned true. Several changes of one booking come in the order
// the lifecycle makes them (created, confirmed, rescheduled, cancelled or completed, no-show). Each
// event's id is derived from the booking's uid, the change (the new status, the new times) and what it
// changed from (the snapshot's fingerprint of the booking before, and the booking's updated_at where it
// has one), so a run that sends a change again sends the same id, and an idempotent receiver drops the
// repeat; a booking moved A to B, back, and to B again is three changes, three ids (review s34b, F2).
import { createHash } from 'node:crypto';
import type { EventName } from '../../../webhook/events';
import { isPlainObject } from '../../../base/plain-object';
import { scalarText, stringifyJson } from '../../../output/json';
import { entryValue, type Entry } from './snapshot';

export interface RebuiltEvent {
  event: EventName;
  /** "evt_rebuilt_" + 24 hex digits of sha256(uid, event, change, what it changed from). */
  id: string;
  uid: string;
  booking: Record<string, unknown>;
  /** booking.rescheduled: the time before. */
  previous?: { start: unknown; end: unknown };
}

/** Status values (lower case) and the event a booking's turning to them is. */
const STATUS_EVENTS: Record<string, EventName> = {
  confirmed: 'booking.confirmed',
  accepted: 'booking.confirmed',
  cancelled: 'booking.cancelled',
  canceled: 'booking.cancelled',
  rejected: 'booking.cancelled',
  completed: 'booking.completed',
};

/** A status event sorts before a reschedule only when it is the confirmation (a pending booking is confirmed, then moved). */
const BEFORE_RESCHEDULE: ReadonlySet<EventName> = new Set(['booking.confirmed']);

/**
 * The events of one booking's change, in order; none for a change the service sends nothing for.
 * Compared: the entries (what is watched: every field, or those --fields names); sent: the item.
 */
export function rebuiltEvents(uid: string, before: Entry | undefined, after: Entry, item: unknown): RebuiltEvent[] {
  if (!isPlainObject(item)) return [];
  const was = before ? entryValue(before) : undefined;
  const now = entryValue(after);
  const out: RebuiltEvent[] = [];
  // What the change is from: the same for the same change found again, another for a later one.
  const from = `${before?.fp ?? ''}\u0000${text(item.updated_at ?? item.updatedAt)}`;
  const add = (event: EventName, change: string, previous?: RebuiltEvent['previous']) =>
    out.push({ event, id: eventId(uid, event, `${change}\u0000${from}`), uid, booking: item, ...(previous ? { previous } : {}) });
  if (!was) add('booking.created', '');
  const status = text(now.status).toLowerCase();
  const statusEvent = status !== text(was?.status).toLowerCase() ? STATUS_EVENTS[status] : undefined;
  if (statusEvent && BEFORE_RESCHEDULE.has(statusEvent)) add(statusEvent, status);
  if (was && (text(was.start) !== text(now.start) || text(was.end) !== text(now.end)))
    add('booking.rescheduled', `${text(now.start)}\n${text(now.end)}`, { start: was.start ?? null, end: was.end ?? null });
  if (statusEvent && !BEFORE_RESCHEDULE.has(statusEvent)) add(statusEvent, status);
  if (now.no_show === true && was?.no_show !== true) add('no_show.flagged', '');
  return out;
}

function text(value: unknown): string {
  return value === undefined || value === null || typeof value === 'object' ? '' : scalarText(value);
}

function eventId(uid: string, event: EventName, change: string): string {
  const digest = createHash('sha256').update(`${uid}\u0000${event}\u0000${change}`).digest('hex');
  return `evt_rebuilt_${digest.slice(0, 24)}`;
}

/** The body of a rebuilt delivery: the service's shape (src/webhook/payload.ts), numbers as received. */
export function rebuiltBody(e: RebuiltEvent, createdAt: string): string {
  const data: Record<string, unknown> = { booking: e.booking };
  if (e.previous) data.previous = e.previous;
  return stringifyJson({ id: e.id, event: e.event, created_at: createdAt, data });
}
