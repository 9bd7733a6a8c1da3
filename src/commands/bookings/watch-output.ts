// How `bookings watch` prints its events. ndjson: one JSON object per event (lossless, as every JSON
// output). tsv (a pipe): `time, event, uid, field, old, new`, one line per changed field. A terminal:
// a table line per booking, `TIME  EVENT  UID  DETAILS`, the event word coloured by kind and the
// details cut to the terminal's width.
import type { Context } from '../../context';
import { outputFormat } from '../../context';
import { jsonText } from '../../json';
import { displayText, rawText, tableCell } from '../../output/cells';
import { chooseColumns, columnsForFields, type Column } from '../../output/columns';
import { escapeControl } from '../../output/escape';
import { writeLines } from '../../output/index';
import { parsePath, project } from '../../output/paths';
import { colors } from '../../output/style';
import { BOOKING_COLUMNS } from '../../output/booking-columns';
import type { WatchEvent } from './watch-state';

export interface EventWriter {
  write(events: WatchEvent[]): Promise<void>;
}

const KIND_WIDTH = 7;
const ARROW = ' \u2192 ';

export function createEventWriter(ctx: Context): EventWriter {
  const fields = ctx.globals.fields;
  const paths = fields?.map(parsePath);
  switch (outputFormat(ctx)) {
    case 'ndjson':
      return { write: (events) => writeLines(ctx, events, (e) => `${jsonText(shaped(e, paths))}\n`) };
    case 'tsv':
      return { write: (events) => writeLines(ctx, events.flatMap(tsvLines), (line) => line) };
    default:
      return terminalWriter(ctx, fields);
  }
}

/** The event with its booking cut to --fields. */
function shaped(e: WatchEvent, paths: ReturnType<typeof parsePath>[] | undefined): WatchEvent {
  return paths && 'booking' in e ? { ...e, booking: project(e.booking, paths) } : e;
}

function tsvLines(e: WatchEvent): string[] {
  const start = `${e.at}\t${e.type}\t${rawText(e.uid)}`;
  if (e.type !== 'changed') return [`${start}\t\t\t\n`];
  return Object.entries(e.changes).map(([f, [old, now]]) => `${start}\t${escapeControl(f)}\t${rawText(old)}\t${rawText(now)}\n`);
}

function terminalWriter(ctx: Context, fields: string[] | undefined): EventWriter {
  const { green, yellow, red, dim, bold } = colors;
  const paint: Record<WatchEvent['type'], (t: string) => string> = ctx.io.color
    ? { listed: (t) => t, added: green, changed: yellow, removed: red }
    : { listed: (t) => t, added: (t) => t, changed: (t) => t, removed: (t) => t };
  const faint = ctx.io.color ? dim : (t: string) => t;
  let uidWidth = 17; // bk_ and 14 characters, as the sandbox makes them; a longer uid widens later lines
  const line = (e: WatchEvent): string => {
    const uid = escapeControl(e.uid);
    uidWidth = Math.max(uidWidth, uid.length);
    const used = 8 + 2 + KIND_WIDTH + 2 + uidWidth + 2;
    const details = cut(detailsOf(e, fields), Math.max(10, ctx.io.columns - used));
    return `${`${faint(clock(e.at))}  ${paint[e.type](e.type.padEnd(KIND_WIDTH))}  ${uid.padEnd(uidWidth)}  ${details}`.trimEnd()}\n`;
  };
  // The header comes with the first events: a watch that fails at its first poll prints nothing.
  let headed = false;
  const header = () => `${'TIME'.padEnd(8)}  ${'EVENT'.padEnd(KIND_WIDTH)}  ${'UID'.padEnd(uidWidth)}  DETAILS`;
  return {
    write(events) {
      if (events.length === 0) return Promise.resolve();
      const lines = events.map(line);
      if (!headed) lines.unshift(`${ctx.io.color ? bold(header()) : header()}\n`);
      headed = true;
      return writeLines(ctx, lines, (l) => l);
    },
  };
}

/** The poll's time as the terminal shows it: local HH:MM:SS. */
function clock(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function detailsOf(e: WatchEvent, fields: string[] | undefined): string {
  switch (e.type) {
    case 'changed':
      return Object.entries(e.changes)
        .map(([f, [old, now]]) => `${escapeControl(f)}: ${shown(old)}${ARROW}${shown(now)}`)
        .join(', ');
    case 'removed':
      return Object.values(e.last).map(shown).join(' \u00b7 ');
    default:
      return summaryColumns(e.booking, fields)
        .map((c) => tableCell(e.booking, c))
        .filter((t) => t !== '')
        .join(' \u00b7 ');
  }
}

/** The columns a new booking is summed up by: --fields, else the list's preferred ones but the uid. */
function summaryColumns(item: unknown, fields: string[] | undefined): Column[] {
  const columns = fields ? columnsForFields(fields, [item]) : chooseColumns([item], BOOKING_COLUMNS);
  return columns.filter((c) => c.kind !== 'id');
}

function shown(value: unknown): string {
  return value === null || value === undefined ? '(none)' : displayText(value);
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}\u2026`;
}
