// Which columns a table or tsv shows. Field names are not part of the API's documentation, so a
// column is a list of aliases tried per item, and for data with no preferred columns the columns come
// from the items' own top-level fields.
import { existsSync, readlinkSync } from 'node:fs';
import { getPath, parsePath, type Path } from './paths';
import { isPlainObject } from '../base/plain-object';
import { escapeControl } from './escape';
import { keysInOrder } from './key-order';
import { offsetText, type ZoneName } from './time-zone';

/** How a column is treated when the table is too wide: ids are kept whole, text shrinks first. */
export type ColumnKind = 'id' | 'text' | 'status' | 'time' | 'people';

export interface ColumnSpec {
  header: string;
  /** Dot paths tried in order for each item; the first with a value gives the cell. */
  paths: string[];
  kind?: ColumnKind;
}

export interface Column {
  header: string;
  paths: Path[];
  kind: ColumnKind;
  /** The field's own name, as csv's header row shows it: the key, the --fields path, or the header in lower case. */
  name?: string;
  /** The zone a table shows this column's times in (withTimeZone); local when absent. */
  zone?: ZoneName;
  /** The VALUE column of a list that mixes objects with other values: those values only. */
  plainOnly?: boolean;
}

function resolveColumn(spec: ColumnSpec): Column {
  return { header: spec.header, paths: spec.paths.map(parsePath), kind: spec.kind ?? 'text', name: spec.header.toLowerCase() };
}

/** --fields a,b.c: exactly those columns, headed by the path as typed; `items` tell which hold times. */
export function columnsForFields(fields: string[], items: unknown[] = []): Column[] {
  return fields.map((f) => {
    if (isPlainValueField(f, items)) return VALUE_COLUMN;
    const path = parsePath(f);
    const sample = items.map((item) => getPath(item, path)).find(hasValue);
    return { header: escapeControl(f.split('.').map(headerWords).join('.')), paths: [path], kind: kindOf(f, sample), name: f };
  });
}

function hasValue(v: unknown): boolean {
  return v !== undefined && v !== null && v !== '';
}

/** The item's value for the column and the alias that gave it (null when none did). */
export function cellValue(item: unknown, column: Column): { value: unknown; path: Path | null } {
  if (column.plainOnly && isPlainObject(item)) return { value: undefined, path: null };
  for (const path of column.paths) {
    const value = getPath(item, path);
    if (hasValue(value)) return { value, path };
  }
  return { value: undefined, path: null };
}

/**
 * Preferred columns that some item fills (all of them with keepEmpty); when fewer than two match, the
 * shape is not the expected one and the columns come from the data itself.
 */
/** A command's own columns (bookings' six), as a list that has no items to choose from shows them. */
export function preferredColumns(preferred: ColumnSpec[]): Column[] {
  return preferred.map(resolveColumn);
}

export function chooseColumns(
  items: unknown[],
  preferred?: ColumnSpec[],
  keepEmpty = false,
  /** Told when the fields were more than MAX_DATA_COLUMNS, with the most one item has. */
  onCapped?: (widest: number) => void,
): Column[] {
  if (preferred) {
    const all = preferred.map(resolveColumn);
    const found = all.filter((c) => items.some((item) => cellValue(item, c).path !== null));
    // keepEmpty (tsv): every preferred column, so that a field's position never depends on the data.
    if (found.length >= 2) return keepEmpty ? all : found;
  }
  return columnsFromData(items, onCapped);
}

/**
 * The most columns a list's own fields make. An item of a million fields (a hostile or broken
 * service) made as many columns, one synchronous stretch of seconds that Ctrl-C could not cut, and
 * tsv lines of 64 MB; no reader of a table or tsv has a use for more.
 */
export const MAX_DATA_COLUMNS = 1_000;

const FIRST_KEYS = ['id', 'uid', 'slug', 'name', 'title'];
const ISO_LIKE = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}/;

/** A column holding date-times is kept whole; otherwise its name says. */
function kindOf(path: string, sample: unknown): ColumnKind {
  return typeof sample === 'string' && ISO_LIKE.test(sample) ? 'time' : kindOfName(path);
}

function kindOfName(path: string): ColumnKind {
  const name = path.split('.').pop() ?? path;
  if (/^(id|uid|slug)$/i.test(name) || /(_id|_uid|[a-z]Id|[a-z]Uid)$/.test(name)) return 'id';
  if (/^(status|state)$/i.test(name)) return 'status';
  return 'text';
}

/** Top-level fields in order of first appearance: the usual identity keys first, nested values last. */
function columnsFromData(items: unknown[], onCapped?: (widest: number) => void): Column[] {
  // Each key's first non-empty value decides whether it is a scalar or a nested column.
  const sample = new Map<string, unknown>();
  let others = false;
  let widest = 0;
  let capped = false;
  for (const item of items) {
    if (!isPlainObject(item)) {
      others = true;
      continue;
    }
    const keys = keysInOrder(item) ?? Object.keys(item);
    widest = Math.max(widest, keys.length);
    for (const key of keys) {
      if (!sample.has(key) && sample.size >= MAX_DATA_COLUMNS) {
        capped = true;
        continue;
      }
      const value = item[key];
      if (!sample.has(key) || (sample.get(key) === undefined && hasValue(value))) sample.set(key, hasValue(value) ? value : undefined);
    }
  }
  // Said whether one item is that wide or the items' fields together are.
  if (capped) onCapped?.(widest);
  if (sample.size === 0) return [{ header: 'VALUE', paths: [[]], kind: 'text', name: 'value' }];
  const isNested = (key: string) => {
    const s = sample.get(key);
    return Array.isArray(s) || isPlainObject(s);
  };
  const keys = [...sample.keys()];
  const scalars = keys.filter((k) => !isNested(k));
  const first = FIRST_KEYS.flatMap((f) => scalars.filter((k) => k.toLowerCase() === f));
  const ordered = [...first, ...scalars.filter((k) => !first.includes(k)), ...keys.filter(isNested)];
  const columns: Column[] = ordered.map((key) => {
    // A field name is API data too: shown escaped, like the values.
    return { header: escapeControl(headerWords(key)), paths: [[key]], kind: kindOf(key, sample.get(key)), name: key };
  });
  // Items that are not objects (a list of 1, "two", {...}) have no fields: without a column of their
  // own they would be empty rows.
  if (others) columns.push(VALUE_COLUMN);
  return columns;
}

const VALUE_COLUMN: Column = { header: 'VALUE', paths: [[]], kind: 'text', name: 'value', plainOnly: true };

/**
 * Whether --fields names the VALUE column that a list mixing objects with other values shows: `value`,
 * when some item is not an object and no object has a field of that name (which would be meant).
 */
export function isPlainValueField(field: string, items: unknown[]): boolean {
  if (field !== 'value') return false;
  let plain = false;
  for (const item of items) {
    if (!isPlainObject(item)) plain = true;
    else if (getPath(item, ['value']) !== undefined) return false;
  }
  return plain;
}

/**
 * The columns with each header made again from its field's name as `mask` (the output door's key mask)
 * leaves it. A header's words (cut at _ and at case changes, upper-cased) would hide the key from the
 * door, which finds runs of it: a server that names a field with the key had it shown in a table's
 * header, in another case and cut into words (review s34c, F1).
 */
export function maskedHeaders(columns: Column[], mask: (text: string) => string): Column[] {
  return columns.map((c) => {
    if (c.name === undefined) return c;
    const name = mask(c.name);
    return name === c.name ? c : { ...c, header: escapeControl(headerWords(name)) };
  });
}

/** A field name as a header: `lengthInMinutes` and `length_in_minutes` both `LENGTH IN MINUTES`. */
function headerWords(name: string): string {
  return (
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/[_-]+/g, ' ')
      .trim()
      .toUpperCase() || name.toUpperCase()
  );
}

/**
 * Columns as a table heads them: times are shown in the --tz zone (local time when none is named), so
 * the first column of times names the zone (`START (Europe/London)`); the others (END) are in the same
 * zone, and each name would cost a column's worth of width.
 */
export function withTimeZone(columns: Column[], zone: ZoneName = 'local'): Column[] {
  const first = columns.findIndex((c) => c.kind === 'time');
  const shown = first < 0 ? '' : zoneLabel(zone);
  return columns.map((c, i) => ({ ...c, zone, header: i === first ? `${c.header} (${shown})` : c.header }));
}

/** The zone as a header names it: `local` by the system's zone name, an offset as `UTC+05:30`. */
export function zoneLabel(zone: ZoneName): string {
  return zone === 'local' ? localZoneName() : /^[+-]/.test(zone) ? `UTC${zone}` : zone;
}

/**
 * The zone local times are shown in (TZ, else the system's): `Europe/London`. Asked of Intl only when
 * neither TZ nor /etc/localtime names it: the first Intl.DateTimeFormat loads ICU's locale and zone
 * data, ~25 ms of every table or record with a time in it. `localtime` is the system's zone link (a
 * test gives its own).
 */
export function localZoneName(localtime = '/etc/localtime'): string {
  const tz = process.env.TZ;
  if (tz !== undefined) {
    // A zone of the database as set (`Europe/London`, `:UTC`), as the C library finds it: a file under
    // /usr/share/zoneinfo. Anything else (a POSIX rule such as `UTC0`, empty) Intl resolves.
    const name = tz.replace(/^:/, '');
    if (ZONE_NAME.test(name) && existsSync(`/usr/share/zoneinfo/${name}`)) return name;
  } else {
    try {
      // The system's zone: a link to its file in the zone database (Linux, macOS).
      const target = readlinkSync(localtime);
      const at = target.indexOf('zoneinfo/');
      if (at >= 0 && ZONE_NAME.test(target.slice(at + 9))) return target.slice(at + 9);
    } catch {}
  }
  const resolved = Intl.DateTimeFormat().resolvedOptions().timeZone;
  if (resolved && resolved !== 'Etc/Unknown') return resolved;
  // A TZ no zone database knows (empty, a typo): the times are then shown at the offset the C
  // library falls back to (UTC), and the header says that rather than "Etc/Unknown".
  const offset = -new Date().getTimezoneOffset();
  return offset === 0 ? 'UTC' : `UTC${offsetText(offset)}`;
}

const ZONE_NAME = /^(?:[A-Z][A-Za-z0-9_+-]*\/)*[A-Z][A-Za-z0-9_+-]*$/;
