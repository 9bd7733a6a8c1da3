// Tables for a reader at a terminal: borderless (gh/kubectl style) so more columns fit, cut to the
// terminal width, header bold and statuses coloured when colour is on. A list is laid out once, from
// its first rows, and every later row is written as it arrives (constant time and memory per row);
// a record goes through cli-table3 for its word wrap. Loaded with import() only when a table is
// printed: cli-table3 stays out of the start-up path of tsv/json/ndjson.
import Table from 'cli-table3';
import * as utilsModule from 'cli-table3/src/utils.js';
import type { Column, ColumnKind } from './columns';
import { tableCell } from './cells';
import { fitWidths } from './fit';
import { tableStyle, type Style } from './style';

type Utils = typeof utilsModule;
// CommonJS seen from ESM: the functions may sit on the namespace or on its default export.
const utils: Utils = (utilsModule as Utils & { default?: Utils }).default ?? utilsModule;

const GAP = '  ';
const NO_BORDERS = Object.fromEntries(
  [
    'top',
    'top-mid',
    'top-left',
    'top-right',
    'bottom',
    'bottom-mid',
    'bottom-left',
    'bottom-right',
    'left',
    'left-mid',
    'mid',
    'mid-mid',
    'right',
    'right-mid',
  ].map((k) => [k, '']),
);
const TABLE_STYLE = { 'padding-left': 0, 'padding-right': 0, head: [] as string[], border: [] as string[] };

/** How narrow a column may be cut before the table drops columns instead. */
const MIN_WIDTH: Record<ColumnKind, number> = { id: 40, time: 19, status: 12, text: 10, people: 10 };

function newTable(opts: { head?: string[]; colWidths?: number[]; wordWrap?: boolean }): InstanceType<typeof Table> {
  return new Table({ ...opts, chars: { ...NO_BORDERS, middle: GAP }, style: TABLE_STYLE });
}

function finish(table: InstanceType<typeof Table>): string {
  // Trailing padding helps nobody and makes copied lines dirty.
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** Columns a cell takes on the terminal; plain ASCII (nearly every cell) without string-width's cost. */
function width(text: string): number {
  return PRINTABLE_ASCII.test(text) ? text.length : utils.strlen(text);
}

function cut(text: string, max: number): string {
  return fitted(text, max)[0];
}

/** The text cut to `max` columns (with …) and the columns it then takes. ASCII without string-width. */
function fitted(text: string, max: number): [string, number] {
  if (PRINTABLE_ASCII.test(text)) return text.length <= max ? [text, text.length] : [`${text.slice(0, Math.max(0, max - 1))}…`, max];
  const w = utils.strlen(text);
  if (w <= max) return [text, w];
  const cutText = utils.truncate(text, max, '…');
  return [cutText, utils.strlen(cutText)];
}

/** A list laid out once, from its first rows: the header line and how any later row is written. */
export interface ListLayout {
  /** The header line, newline included. */
  header: string;
  /** One item as one line, fitted to the layout's widths (cut with … when longer). */
  row(item: unknown): string;
}

export interface TableRenderer {
  /**
   * The layout for these columns, with widths from the `sample` rows (cells are already escaped
   * text); undefined when there is nothing to show. `dropped` gets the headers of the columns left
   * out to fit the width, if any.
   */
  layout(columns: Column[], sample: unknown[], width: number, dropped?: (headers: string[]) => void): ListLayout | undefined;
  /** A single record as `key  value` rows, long values wrapped. */
  record(pairs: [string, string][], width: number): string;
}

export async function loadTableRenderer(color: boolean): Promise<TableRenderer> {
  const style = tableStyle(color);
  return { layout: (c, s, w, d) => listLayout(style, c, s, w, d), record: (p, w) => renderRecord(style, p, w) };
}

function listLayout(
  style: Style,
  columns: Column[],
  sample: unknown[],
  available: number,
  dropped?: (headers: string[]) => void,
): ListLayout | undefined {
  if (sample.length === 0 || columns.length === 0) return undefined;
  // A loop, not Math.max(...): a spread of a long list overflows the stack.
  const natural = columns.map((c) => width(c.header));
  for (const item of sample) {
    columns.forEach((c, i) => {
      natural[i] = Math.max(natural[i]!, width(tableCell(item, c)));
    });
  }
  const fit = columns.map((c, i) => ({
    natural: natural[i]!,
    // A time column's header (which names the zone) is kept whole, like its cells.
    min: Math.max(MIN_WIDTH[c.kind], Math.min(width(c.header), c.kind === 'time' ? Infinity : 12)),
  }));
  const widths = fitWidths(fit, available, GAP.length);
  const kept = columns.slice(0, widths.length);
  if (kept.length < columns.length) dropped?.(columns.slice(kept.length).map((c) => c.header));
  const last = kept.length - 1;
  // Ids are never cut (a cut id is of no use): a longer one than the first page had pushes the line.
  const line = (cells: string[], paint: (text: string, i: number) => string) => {
    let out = '';
    for (let i = 0; i <= last; i++) {
      const [text, w] = kept[i]!.kind === 'id' ? fitted(cells[i]!, Infinity) : fitted(cells[i]!, widths[i]!);
      out += i === last ? paint(text, i) : `${paint(text, i)}${' '.repeat(Math.max(0, widths[i]! - w))}${GAP}`;
    }
    return `${out.trimEnd()}\n`;
  };
  return {
    header: line(
      kept.map((c) => c.header),
      (t) => style.bold(t),
    ),
    row: (item) =>
      line(
        kept.map((c) => tableCell(item, c)),
        (t, i) => (kept[i]!.kind === 'status' ? style.status(t) : t),
      ),
  };
}

/** Splits words longer than `width`, so that word wrapping breaks them instead of cutting them off. */
function breakLongWords(text: string, width: number): string {
  return text.replace(new RegExp(`\\S{${width + 1},}`, 'gu'), (word) => word.match(new RegExp(`.{1,${width}}`, 'gu'))!.join(' '));
}

function renderRecord(style: Style, pairs: [string, string][], available: number): string {
  if (pairs.length === 0) return '';
  let widest = 0;
  for (const [key] of pairs) widest = Math.max(widest, width(key));
  const keyWidth = Math.min(widest, Math.max(8, Math.floor(available / 3)));
  const valueWidth = Math.max(10, available - keyWidth - GAP.length);
  const table = newTable({ colWidths: [keyWidth, valueWidth], wordWrap: true });
  for (const [key, value] of pairs) {
    table.push([style.bold(cut(key, keyWidth)), breakLongWords(value, valueWidth)]);
  }
  return finish(table);
}
