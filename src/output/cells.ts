// The text of one cell. tsv shows values exactly as received (escaped only where a control character
// would break the line or reach the terminal); the table is for reading, so times are local and
// lists are joined.
import { fieldText, stringifyJson } from './json';
import { cellValue, type Column } from './columns';
import { escapeControl } from './escape';
import { getPath } from './paths';
import { isPlainObject } from '../base/plain-object';
import { isoInZone, shownTime, type ZoneName } from './time-zone';

/** A value as one tsv field: numbers with their digits, nested values as compact JSON, escaped. */
export function rawText(value: unknown): string {
  return fieldText(value, escapeControl);
}

/**
 * A value as a tsv or csv field: as received, but a time in the zone named by --tz (when one is)
 * written as ISO 8601 with that zone's offset.
 */
export function zonedRaw(value: unknown, zone: ZoneName | undefined): unknown {
  return zone !== undefined && typeof value === 'string' ? (isoInZone(value, zone) ?? value) : value;
}

export function tsvCell(item: unknown, column: Column, zone?: ZoneName): string {
  return rawText(zonedRaw(cellValue(item, column).value, zone));
}

/** `2026-11-23T08:00:00Z` → `2026-11-23 09:00` in the local zone (TZ); undefined if not such a time. */
export function localTime(text: string): string | undefined {
  return shownTime(text);
}

/** A value as a table shows it: times in the zone (local), lists of scalars joined, other nested values as JSON. */
export function displayText(value: unknown, zone?: ZoneName): string {
  if (typeof value === 'string') return shownTime(value, zone) ?? escapeControl(value);
  if (Array.isArray(value) && value.every((v) => !Array.isArray(v) && !isPlainObject(v))) {
    return value.map((v) => displayText(v, zone)).join(', ');
  }
  if (Array.isArray(value) || isPlainObject(value)) return escapeControl(stringifyJson(value));
  return rawText(value);
}

export function tableCell(item: unknown, column: Column): string {
  const { value, path } = cellValue(item, column);
  const text = displayText(value, column.zone);
  if (column.kind !== 'people' || !path) return text;
  // "Ann +2" when the name came from the first of several attendees.
  const index = path.findIndex((s) => /^\d+$/.test(s));
  if (index < 0) return text;
  const list = getPath(item, path.slice(0, index));
  return Array.isArray(list) && list.length > 1 ? `${text} +${list.length - 1}` : text;
}
