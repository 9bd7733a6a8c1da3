// The body of a delivery, shared by `webhook send` (built-in samples) and the sandbox (real lifecycle
// changes), so both send the same shape:
//   { "id": "evt_…", "event": "booking.rescheduled", "created_at": "<ISO>", "data": { "booking": {…},
//     "previous": { "start": "<old ISO>", "end": "<old ISO>" } } }
// `previous` appears only for booking.rescheduled (the old time; the booking carries the new one).
import { randomBytes } from 'node:crypto';
import type { EventName } from './signature';

export interface DeliveryOptions {
  id: string;
  createdAt: string;
  previous?: { start: string; end: string };
}

export function deliveryBody(event: EventName, booking: Record<string, unknown>, opts: DeliveryOptions): string {
  return JSON.stringify(deliveryPayload(event, booking, opts));
}

function deliveryPayload(event: EventName, booking: Record<string, unknown>, opts: DeliveryOptions): Record<string, unknown> {
  const data: Record<string, unknown> = { booking };
  if (opts.previous) data.previous = opts.previous;
  return { id: opts.id, event, created_at: opts.createdAt, data };
}

const SAMPLE_STATUS: Record<EventName, string> = {
  'booking.created': 'pending',
  'booking.confirmed': 'confirmed',
  'booking.rescheduled': 'confirmed',
  'booking.cancelled': 'cancelled',
  'booking.completed': 'completed',
  'no_show.flagged': 'completed',
};

// booking.completed is sent when the meeting's end time has passed, and a no-show is flagged after
// it: their samples are of yesterday's meeting. The others are of tomorrow's.
const PAST: ReadonlySet<EventName> = new Set<EventName>(['booking.completed', 'no_show.flagged']);

/**
 * A built-in sample delivery for `webhook send` when no body is given, as a parsed payload (for
 * --set). Its event id and booking uid are new each time: receivers de-duplicate on the id.
 */
export function samplePayload(event: EventName, now: Date): Record<string, unknown> {
  const day = PAST.has(event) ? -1 : 1;
  // 09:00 UTC of that day: yesterday's meeting ended at 09:30 UTC yesterday, before any time today.
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + day, 9, 0, 0));
  const end = new Date(start.getTime() + 30 * 60_000);
  const booking = sampleBooking(freshId('bk_'), event, start.toISOString(), end.toISOString());
  const previous =
    event === 'booking.rescheduled'
      ? { start: new Date(start.getTime() - 86_400_000).toISOString(), end: new Date(end.getTime() - 86_400_000).toISOString() }
      : undefined;
  return deliveryPayload(event, booking, { id: freshId('evt_'), createdAt: now.toISOString(), previous });
}

/** The sample booking as it stands after `event`: the status that event leaves it in. */
export function sampleBooking(uid: string, event: EventName, start: string, end: string): Record<string, unknown> {
  const booking: Record<string, unknown> = {
    uid,
    title: '30 min meeting',
    status: SAMPLE_STATUS[event],
    start,
    end,
    attendee: { name: 'Ada Lovelace', email: 'ada@example.com' },
    event_type: { id: 1, slug: '30min' },
  };
  if (event === 'no_show.flagged') booking.no_show = true;
  return booking;
}

/** "evt_" + 20 random hex digits: unique enough that no receiver's de-duplication sees two alike. */
export function freshId(prefix: string): string {
  return prefix + randomBytes(10).toString('hex');
}
