// How `bookings watch` prints its events, through the output layer (src/output/records.ts) as a
// stream of records: -o json/ndjson (one JSON event per line), --jq, --json FIELDS and --fields apply
// to each event, and a --fields typo is exit 2 before the first poll. Without a field list: tsv (a
// pipe) is `time, event, uid, field, old, new`, one line per changed field; a terminal gets a table
// line per booking, `TIME  EVENT  UID  DETAILS`, the event word coloured by kind and the details cut
// to the terminal's width.
import type { Context } from '../../../context';
import { outputFormat } from '../../../context';
import { displayText, rawText, tableCell, zonedRaw } from '../../../output/cells';
import { chooseColumns, type Column } from '../../../output/columns';
import { escapeControl } from '../../../output/escape';
import { createRecordWriter, type RecordWriter } from '../../../output/records';
import { fieldList } from '../../../output/sink';
import { colors } from '../../../output/style';
import { clockIn, type ZoneName } from '../../../output/time-zone';
import { BOOKING_COLUMNS } from '../../../output/booking-columns';

/** What `bookings watch` and `bookings changes` print, one record per event. */
export type WatchEvent =
  | { type: 'listed' | 'added'; uid: string; booking: unknown; at: string }
  | { type: 'changed'; uid: string; changes: Record<string, [unknown, unknown]>; at: string }
  | { type: 'removed'; uid: string; last: Record<string, unknown>; at: string }
  /** `bookings changes --since TIME`: a booking updated since then; what changed is not known. */
  | { type: 'updated'; uid: string; booking: unknown; at: string };

export type EventWriter = RecordWriter<WatchEvent>;

/** Every key an event can have (watch-state.ts's WatchEvent): --fields is checked against them. */
const KEYS = ['type', 'uid', 'booking', 'changes', 'last', 'at'] as const;

const KIND_WIDTH = 7;
const ARROW = ' \u2192 ';

export function createEventWriter(ctx: Context): Promise<EventWriter> {
  const line = outputFormat(ctx) === 'tsv' ? tsvLines(ctx.globals.tz) : terminalLine(ctx);
  return createRecordWriter(ctx, 'stream', { keys: KEYS, data: (e) => e, line });
}

/**
 * The booking fields a --fields list names (`booking.status`, `changes.start`): only those are
 * watched, so what is printed and what is compared are the same fields. None named: every field.
 */
export function watchedFields(ctx: Context): string[] | undefined {
  const named = (fieldList(ctx) ?? []).flatMap((f) => {
    const m = /^(?:booking|changes)\.(.+)$/.exec(f);
    return m ? [m[1]!] : [];
  });
  return named.length > 0 ? [...new Set(named)] : undefined;
}

/**
 * A changed event is a line per changed field; the others one line with empty field columns. Times
 * (the event's, and a changed time's old and new) in the --tz zone, as a list's tsv shows them.
 */
function tsvLines(zone: ZoneName | undefined): (e: WatchEvent) => string {
  const time = (v: unknown) => rawText(zonedRaw(v, zone));
  return (e) => {
    const start = `${time(e.at)}\t${e.type}\t${rawText(e.uid)}`;
    if (e.type !== 'changed') return `${start}\t\t\t`;
    return Object.entries(e.changes)
      .map(([f, [old, now]]) => `${start}\t${escapeControl(f)}\t${time(old)}\t${time(now)}`)
      .join('\n');
  };
}

function terminalLine(ctx: Context): (e: WatchEvent) => string {
  const { green, yellow, red, dim, bold } = colors;
  const paint: Record<WatchEvent['type'], (t: string) => string> = ctx.io.color
    ? { listed: (t) => t, added: green, changed: yellow, updated: yellow, removed: red }
    : { listed: (t) => t, added: (t) => t, changed: (t) => t, updated: (t) => t, removed: (t) => t };
  const faint = ctx.io.color ? dim : (t: string) => t;
  let uidWidth = 17; // bk_ and 14 characters, as the sandbox makes them; a longer uid widens later lines
  // The header comes with the first event: a watch that fails at its first poll prints nothing.
  let headed = false;
  const header = () => `${'TIME'.padEnd(8)}  ${'EVENT'.padEnd(KIND_WIDTH)}  ${'UID'.padEnd(uidWidth)}  DETAILS`;
  return (e) => {
    const uid = escapeControl(e.uid);
    uidWidth = Math.max(uidWidth, uid.length);
    const used = 8 + 2 + KIND_WIDTH + 2 + uidWidth + 2;
    const details = cut(detailsOf(e, ctx.globals.tz), Math.max(10, ctx.io.columns - used));
    const line =
      `${faint(clockIn(new Date(e.at), ctx.globals.tz))}  ${paint[e.type](e.type.padEnd(KIND_WIDTH))}  ${uid.padEnd(uidWidth)}  ${details}`.trimEnd();
    if (headed) return line;
    headed = true;
    return `${ctx.io.color ? bold(header()) : header()}\n${line}`;
  };
}

/** An event's details as the terminal line shows them, times in the --tz zone (local when none). */
function detailsOf(e: WatchEvent, zone: string | undefined): string {
  const shown = (value: unknown) => (value === null || value === undefined ? '(none)' : displayText(value, zone));
  switch (e.type) {
    case 'changed':
      return Object.entries(e.changes)
        .map(([f, [old, now]]) => `${escapeControl(f)}: ${shown(old)}${ARROW}${shown(now)}`)
        .join(', ');
    case 'removed':
      return Object.values(e.last).map(shown).join(' \u00b7 ');
    default:
      return summaryColumns(e.booking)
        .map((c) => tableCell(e.booking, { ...c, zone }))
        .filter((t) => t !== '')
        .join(' \u00b7 ');
  }
}

/** The columns a new booking is summed up by: the list's preferred ones but the uid. */
function summaryColumns(item: unknown): Column[] {
  return chooseColumns([item], BOOKING_COLUMNS).filter((c) => c.kind !== 'id');
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}\u2026`;
}
