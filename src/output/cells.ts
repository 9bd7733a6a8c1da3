// The text of one cell. tsv shows values exactly as received (escaped only where a control character
// would break the line or reach the terminal); the table is for reading, so times are local and
// lists are joined.
import { scalarText, stringifyJson } from './json';
import { cellValue, type Column } from './columns';
import { escapeControl } from './escape';
import { getPath } from './paths';
import { isPlainObject } from '../base/plain-object';

/** A value as one tsv field: numbers with their digits, nested values as compact JSON, escaped. */
export function rawText(value: unknown): string {
  return escapeControl(scalarText(value));
}

export function tsvCell(item: unknown, column: Column): string {
  return rawText(cellValue(item, column).value);
}

// An ISO 8601 date-time with a zone (Z or an offset); one without a zone is shown as received.
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** `2026-11-23T08:00:00Z` → `2026-11-23 09:00` in the local zone (TZ); undefined if not such a time. */
export function localTime(text: string): string | undefined {
  const m = ISO_ZONED.exec(text);
  if (!m) return undefined;
  const zone =
    m[3]!.toUpperCase() === 'Z' ? 'Z' : m[3]!.replace(/^([+-]\d{2}):?(\d{2})?$/, (_, h: string, mm?: string) => `${h}:${mm ?? '00'}`);
  const date = new Date(`${m[1]}T${m[2]!.replace(',', '.')}${zone}`);
  if (Number.isNaN(date.getTime())) return undefined;
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const seconds = date.getSeconds() === 0 ? '' : `:${pad(date.getSeconds())}`;
  return `${day} ${pad(date.getHours())}:${pad(date.getMinutes())}${seconds}`;
}

/** A value as a table shows it: local times, lists of scalars joined, other nested values as JSON. */
export function displayText(value: unknown): string {
  if (typeof value === 'string') return localTime(value) ?? escapeControl(value);
  if (Array.isArray(value) && value.every((v) => !Array.isArray(v) && !isPlainObject(v))) {
    return value.map(displayText).join(', ');
  }
  if (Array.isArray(value) || isPlainObject(value)) return escapeControl(stringifyJson(value));
  return rawText(value);
}

export function tableCell(item: unknown, column: Column): string {
  const { value, path } = cellValue(item, column);
  const text = displayText(value);
  if (column.kind !== 'people' || !path) return text;
  // "Ann +2" when the name came from the first of several attendees.
  const index = path.findIndex((s) => /^\d+$/.test(s));
  if (index < 0) return text;
  const list = getPath(item, path.slice(0, index));
  return Array.isArray(list) && list.length > 1 ? `${text} +${list.length - 1}` : text;
}
