// Tables for a reader at a terminal: borderless (gh/kubectl style) so more columns fit, cut to the
// terminal width, header bold and statuses coloured when colour is on. A list is laid out once, from
// its first rows, and every later row is written as it arrives (constant time and memory per row);
// a record goes through cli-table3, one row per line we wrapped. Loaded with import() only when a
// table is printed: cli-table3 stays out of the start-up path of tsv/json/ndjson.
//
// Every cut and measure is ours (./width: one pass, linear in the text). cli-table3 only ever gets
// cells that fit its columns, which it sizes from those cells, so it never truncates or wraps:
// its truncate removes one character at a time and measures the whole cell again after each.
import Table from 'cli-table3';
import type { Column, ColumnKind } from './columns';
import { tableCell } from './cells';
import { fitWidths } from './fit';
import { tableStyle, type Style } from './style';
import { fitText, headUnits, textWidth, wrapText } from './width';

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

/**
 * The most of one record value shown (code units): about 100 lines at 80 columns. A longer value
 * (a 64 MiB description) is cut there, so a table of it stays quick; -o json shows it whole.
 */
export const MAX_RECORD_VALUE = 8192;

function newTable(): InstanceType<typeof Table> {
  // No colWidths: cli-table3 sizes each column to its widest cell, which we have already cut.
  return new Table({ wordWrap: false, chars: { ...NO_BORDERS, middle: GAP }, style: TABLE_STYLE });
}

function finish(table: InstanceType<typeof Table>): string {
  // Trailing padding helps nobody and makes copied lines dirty.
  return `${table
    .toString()
    .split('\n')
    .map((l) => l.trimEnd())
    .join('\n')}\n`;
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
  all: Column[],
  sample: unknown[],
  available: number,
  dropped?: (headers: string[]) => void,
): ListLayout | undefined {
  if (sample.length === 0 || all.length === 0) return undefined;
  // Each column shown takes a character and a gap at least: only the first of a list with thousands
  // of fields could fit, and only those are measured.
  const columns = all.slice(0, Math.floor((available + GAP.length) / (1 + GAP.length)) + 1);
  // A loop, not Math.max(...): a spread of a long list overflows the stack.
  const natural = columns.map((c) => textWidth(c.header));
  for (const item of sample) {
    columns.forEach((c, i) => {
      natural[i] = Math.max(natural[i]!, textWidth(tableCell(item, c)));
    });
  }
  const fit = columns.map((c, i) => ({
    natural: natural[i]!,
    // A time column's header (which names the zone) is kept whole, like its cells.
    min: Math.max(MIN_WIDTH[c.kind], Math.min(textWidth(c.header), c.kind === 'time' ? Infinity : 12)),
  }));
  const widths = fitWidths(fit, available, GAP.length);
  const kept = columns.slice(0, widths.length);
  if (kept.length < all.length) dropped?.(all.slice(kept.length).map((c) => c.header));
  const last = kept.length - 1;
  // Ids are not cut (a cut id is of no use): a longer one than the first page had pushes the line.
  // Only past MAX_CELL_UNITS, which no real id reaches, is an id cut like any cell.
  const line = (cells: string[], paint: (text: string, i: number) => string) => {
    let out = '';
    for (let i = 0; i <= last; i++) {
      const [text, w] = fitText(cells[i]!, kept[i]!.kind === 'id' ? Infinity : widths[i]!);
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

/** A value too long to show whole, cut and said so. */
function capped(value: string): string {
  if (value.length <= MAX_RECORD_VALUE) return value;
  return `${headUnits(value, MAX_RECORD_VALUE)}… (cut at ${MAX_RECORD_VALUE.toLocaleString('en')} characters; -o json shows it whole)`;
}

function renderRecord(style: Style, pairs: [string, string][], available: number): string {
  if (pairs.length === 0) return '';
  let widest = 0;
  for (const [key] of pairs) widest = Math.max(widest, textWidth(key));
  const keyWidth = Math.min(widest, Math.max(8, Math.floor(available / 3)));
  const valueWidth = Math.max(10, available - keyWidth - GAP.length);
  const table = newTable();
  for (const [key, value] of pairs) {
    // Long values wrap (at spaces where there are some), one table row per line.
    wrapText(capped(value), valueWidth).forEach((line, i) => {
      table.push([i === 0 ? style.bold(fitText(key, keyWidth)[0]) : '', line]);
    });
  }
  return finish(table);
}
