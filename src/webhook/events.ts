// Names only, with no imports: command definitions load this at start-up (for help texts) without
// pulling in node:crypto.
export const SIGNATURE_HEADER = 'x-service-signature';
export const EVENT_HEADER = 'x-service-event';
export const EVENTS = [
  'booking.created',
  'booking.confirmed',
  'booking.rescheduled',
  'booking.cancelled',
  'booking.completed',
  'no_show.flagged',
] as const;
export type EventName = (typeof EVENTS)[number];

/** `webhook send --scenario NAME`: the built-in series, each the events of one booking in order. */
export const SCENARIOS: Readonly<Record<string, readonly EventName[]>> = {
  lifecycle: ['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.completed'],
  cancel: ['booking.created', 'booking.cancelled'],
  'reschedule-twice': ['booking.created', 'booking.confirmed', 'booking.rescheduled', 'booking.rescheduled'],
  'no-show': ['booking.created', 'booking.confirmed', 'booking.completed', 'no_show.flagged'],
};

// Cal.com's trigger events for the seed's six. A booking that waits for confirmation is
// BOOKING_REQUESTED, and BOOKING_CREATED when it is confirmed, as Cal.com sends them.
export const CAL_EVENTS: Readonly<Record<string, string>> = {
  'booking.created': 'BOOKING_REQUESTED',
  'booking.confirmed': 'BOOKING_CREATED',
  'booking.rescheduled': 'BOOKING_RESCHEDULED',
  'booking.cancelled': 'BOOKING_CANCELLED',
  'booking.completed': 'MEETING_ENDED',
  'no_show.flagged': 'BOOKING_NO_SHOW_UPDATED',
};
