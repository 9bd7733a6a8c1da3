// The columns a table or tsv of bookings prefers (bookings list passes them to the list writer).
// Apart from src/output/columns.ts so that the command can name them without loading the writer.
import type { ColumnSpec } from './columns';

// Lookup is also loose (case, `_`, `-` ignored), so start_time covers startTime and StartTime too.
// A calendar-style {dateTime, timeZone} object is tried before the plain field.
const startPaths = [
  'start.dateTime',
  'start',
  'start_time',
  'starts_at',
  'start_at',
  'start_date',
  'start_datetime',
  'time',
  'scheduled_at',
  'date',
];
const endPaths = ['end.dateTime', 'end', 'end_time', 'ends_at', 'end_at', 'end_date', 'end_datetime'];

export const BOOKING_COLUMNS: ColumnSpec[] = [
  { header: 'UID', kind: 'id', paths: ['uid', 'booking_uid', 'id', 'booking_id'] },
  { header: 'TITLE', kind: 'text', paths: ['title', 'name', 'summary', 'subject', 'event_type.title', 'event_type.name'] },
  { header: 'STATUS', kind: 'status', paths: ['status', 'state', 'booking_status'] },
  { header: 'START', kind: 'time', paths: startPaths },
  { header: 'END', kind: 'time', paths: endPaths },
  {
    header: 'ATTENDEE',
    kind: 'people',
    paths: [
      'attendee.name',
      'attendee.email',
      'attendee_name',
      'attendees.0.name',
      'attendees.0.email',
      'attendee_email',
      'attendee',
      'attendees.0',
      'invitee.name',
      'invitee.email',
      'guest.name',
      'guest.email',
      'booker.name',
      'booker.email',
      'customer.name',
      'customer.email',
    ],
  },
];
