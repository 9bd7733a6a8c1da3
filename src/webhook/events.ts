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
