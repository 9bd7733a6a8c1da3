// Tables for a reader at a terminal: borderless (gh/kubectl style) so more columns fit, cut to the
// terminal width, header bold and statuses coloured when colour is on. Loaded with import() only when
// a table is printed: cli-table3 and chalk stay out of the start-up path of tsv/json/ndjson.
import Table from 'cli-table3';
import * as utilsModule from 'cli-table3/src/utils.js';
import type { Column, ColumnKind } from './columns';
import { tableCell } from './cells';
import { fitWidths } from './fit';
import { loadStyle, type Style } from './style';

type Utils = typeof utilsModule;
// CommonJS seen from ESM: the functions may sit on the namespace or on its default export.
const utils: Utils = (utilsModule as Utils & { default?: Utils }).default ?? utilsModule;

const GAP = '  ';
const NO_BORDERS = Object.fromEntries(
  ['top', 'top-mid', 'top-left', 'top-right', 'bottom', 'bottom-mid', 'bottom-left', 'bottom-right', 'left', 'left-mid', 'mid', 'mid-mid', 'right', 'right-mid'].map((k) => [k, '']),
);
const TABLE_STYLE = { 'padding-left': 0, 'padding-right': 0, head: [] as string[], border: [] as string[] };

/** How narrow a column may be cut before the table drops columns instead. */
const MIN_WIDTH: Record<ColumnKind, number> = { id: 40, time: 19, status: 12, text: 10, people: 10 };

function newTable(opts: { head?: string[]; colWidths?: number[]; wordWrap?: boolean }): InstanceType<typeof Table> {
  return new Table({ ...opts, chars: { ...NO_BORDERS, middle: GAP }, style: TABLE_STYLE });
}

function finish(table: InstanceType<typeof Table>): string {
  // Trailing padding helps nobody and makes copied lines dirty.
  return `${table.toString().split('\n').map((l) => l.trimEnd()).join('\n')}\n`;
}

function cut(text: string, width: number): string {
  return utils.strlen(text) <= width ? text : utils.truncate(text, width, '…');
}

export interface TableRenderer {
  /**
   * The whole table for these items, or '' when none; cells are already escaped text. `dropped` gets
   * the headers of the columns left out to fit the width, if any.
   */
  list(columns: Column[], items: unknown[], width: number, dropped?: (headers: string[]) => void): string;
  /** A single record as `key  value` rows, long values wrapped. */
  record(pairs: [string, string][], width: number): string;
}

export async function loadTableRenderer(color: boolean): Promise<TableRenderer> {
  const style = await loadStyle(color);
  return { list: (c, i, w, d) => renderList(style, c, i, w, d), record: (p, w) => renderRecord(style, p, w) };
}

function renderList(style: Style, columns: Column[], items: unknown[], width: number, dropped?: (headers: string[]) => void): string {
  if (items.length === 0 || columns.length === 0) return '';
  const rows = items.map((item) => columns.map((c) => tableCell(item, c)));
  const fit = columns.map((c, i) => {
    const natural = Math.max(utils.strlen(c.header), ...rows.map((r) => utils.strlen(r[i]!)));
    // A time column's header (which names the zone) is kept whole, like its cells.
    return { natural, min: Math.max(MIN_WIDTH[c.kind], Math.min(utils.strlen(c.header), c.kind === 'time' ? Infinity : 12)) };
  });
  const widths = fitWidths(fit, width, GAP.length);
  const kept = columns.slice(0, widths.length);
  if (kept.length < columns.length) dropped?.(columns.slice(kept.length).map((c) => c.header));
  const table = newTable({ head: kept.map((c, i) => style.bold(cut(c.header, widths[i]!))) });
  for (const row of rows) {
    table.push(kept.map((c, i) => {
      const text = cut(row[i]!, widths[i]!);
      // Colour after cutting, so the escape codes never count towards the width or get cut in half.
      return c.kind === 'status' ? style.status(text) : text;
    }));
  }
  return finish(table);
}

/** Splits words longer than `width`, so that word wrapping breaks them instead of cutting them off. */
function breakLongWords(text: string, width: number): string {
  return text.replace(new RegExp(`\\S{${width + 1},}`, 'gu'), (word) => word.match(new RegExp(`.{1,${width}}`, 'gu'))!.join(' '));
}

function renderRecord(style: Style, pairs: [string, string][], width: number): string {
  if (pairs.length === 0) return '';
  const keyWidth = Math.min(Math.max(...pairs.map(([k]) => utils.strlen(k))), Math.max(8, Math.floor(width / 3)));
  const valueWidth = Math.max(10, width - keyWidth - GAP.length);
  const table = newTable({ colWidths: [keyWidth, valueWidth], wordWrap: true });
  for (const [key, value] of pairs) {
    table.push([style.bold(cut(key, keyWidth)), breakLongWords(value, valueWidth)]);
  }
  return finish(table);
}
