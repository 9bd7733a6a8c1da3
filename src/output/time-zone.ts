// --tz ZONE (or BOOKING_TZ, or the profile's `tz`): the zone time columns are shown in. A table shows
// times in it (the local zone when none is named); tsv and csv keep times as received unless a zone
// is named, and then write them as ISO 8601 with that zone's offset, so a script still reads an
// exact instant. JSON and ndjson always carry what the service sent.
import { UsageError } from '../base/errors';

/** A zone as given: `local` (the system's, or TZ), a name Intl knows (`UTC`, `Europe/Berlin`), or an offset (`+05:30`). */
export type ZoneName = string;

// A fixed offset from UTC: +05:30, -0800, +05. Node 24's Intl takes these and node 20's does not, so
// they are done here, the same on every line; written back as +hh:mm.
const OFFSET_ZONE = /^([+-])(\d{2}):?(\d{2})?$/;

/** Minutes ahead of UTC of an offset zone (`+05:30` → 330); undefined for any other zone or text. */
function offsetMinutes(zone: string): number | undefined {
  const m = OFFSET_ZONE.exec(zone);
  if (!m) return undefined;
  const [hours, minutes] = [Number(m[2]), Number(m[3] ?? '0')];
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

/** The zone as the user named it, checked: `local`, `UTC`, an IANA name or an offset; anything else is exit 2. */
export function checkZone(text: string, from: string): ZoneName {
  const name = text.trim();
  if (name.toLowerCase() === 'local') return 'local';
  const offset = offsetMinutes(name);
  if (offset !== undefined) return offsetText(offset);
  if (name !== '' && !/[^A-Za-z0-9_+\-/]/.test(name)) {
    try {
      // Intl's own spelling when only the case differs (`utc` → `UTC`), else the name as given: Intl
      // would rename some to their old names (Asia/Kolkata → Asia/Calcutta).
      const known = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      return known.toLowerCase() === name.toLowerCase() ? known : name;
    } catch {}
  }
  throw new UsageError(
    `${from}: unknown time zone ${JSON.stringify(name)}; use local, UTC, an IANA name such as Europe/Berlin (see \`timedatectl list-timezones\`) or an offset such as +05:30.`,
  );
}

// An ISO 8601 date-time with a zone (Z or an offset); one without a zone is shown as received.
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/** The instant an ISO 8601 date-time with a zone names, and its fraction of a second as written; undefined for anything else. */
function instantOf(text: string): { date: Date; fraction: string } | undefined {
  const m = ISO_ZONED.exec(text);
  if (!m) return undefined;
  const zone =
    m[3]!.toUpperCase() === 'Z' ? 'Z' : m[3]!.replace(/^([+-]\d{2}):?(\d{2})?$/, (_, h: string, mm?: string) => `${h}:${mm ?? '00'}`);
  const time = m[2]!.replace(',', '.');
  const date = new Date(`${m[1]}T${time}${zone}`);
  if (Number.isNaN(date.getTime())) return undefined;
  // Digits past the millisecond a Date holds (.123456 from Python, PostgreSQL, Go), kept as written.
  const dot = time.indexOf('.');
  return { date, fraction: dot < 0 ? '' : time.slice(dot) };
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The date and time on a wall clock in the zone; `local` uses the Date's own local getters, an offset UTC's (no Intl). */
function wallClock(date: Date, zone: ZoneName): WallClock {
  if (zone === 'local') {
    return {
      year: date.getFullYear(),
      month: date.getMonth() + 1,
      day: date.getDate(),
      hour: date.getHours(),
      minute: date.getMinutes(),
      second: date.getSeconds(),
    };
  }
  const fixed = offsetMinutes(zone);
  if (fixed !== undefined) {
    const at = new Date(date.getTime() + fixed * 60_000);
    const [year, month, day] = [at.getUTCFullYear(), at.getUTCMonth() + 1, at.getUTCDate()];
    return { year, month, day, hour: at.getUTCHours(), minute: at.getUTCMinutes(), second: at.getUTCSeconds() };
  }
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  const n = (type: string) => Number(parts[type]);
  // Intl counts years before 1 AD from 1 BC; ISO 8601 (and Date) from year 0.
  const year = parts.era === 'BC' ? 1 - n('year') : n('year');
  return { year, month: n('month'), day: n('day'), hour: n('hour'), minute: n('minute'), second: n('second') };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Minutes ahead of UTC as ISO 8601 writes them: `+01:00`, `-03:30`. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-11-23T08:00:00Z` → `2026-11-23 09:00` in the zone (seconds only when not :00); undefined if not such a time. */
export function shownTime(text: string, zone: ZoneName = 'local'): string | undefined {
  const instant = instantOf(text);
  if (!instant) return undefined;
  const w = wallClock(instant.date, zone);
  const seconds = w.second === 0 ? '' : `:${pad(w.second)}`;
  return `${yearText(w.year)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}${seconds}`;
}

/** A year as ISO 8601 writes it: four digits, or signed and longer outside 0000-9999. */
function yearText(year: number): string {
  return year >= 0 && year <= 9999 ? pad(year, 4) : `${year < 0 ? '-' : '+'}${pad(Math.abs(year), 6)}`;
}

/**
 * `2026-11-23T08:00:00Z` → `2026-11-23T09:00:00+01:00` in the zone: the same instant, for scripts,
 * its fraction of a second as written. An offset ISO 8601 cannot write (local mean time before ~1900:
 * +00:17:30) is rounded to the minute and the clock written for that offset, so the instant stays
 * exact; a time that would fall outside the years 0001-9999 there is undefined (kept as received).
 */
export function isoInZone(text: string, zone: ZoneName): string | undefined {
  const instant = instantOf(text);
  if (!instant) return undefined;
  const w = wallClock(instant.date, zone);
  const seconds = Math.floor(instant.date.getTime() / 1000);
  // What the wall clock is ahead of UTC, in seconds (a Date of it, as Date.UTC maps years 0-99 to 19xx).
  const wall = new Date(0);
  wall.setUTCFullYear(w.year, w.month - 1, w.day);
  wall.setUTCHours(w.hour, w.minute, w.second, 0);
  const offset = Math.round((wall.getTime() / 1000 - seconds) / 60);
  const at = new Date((seconds + offset * 60) * 1000);
  const year = at.getUTCFullYear();
  if (year < 1 || year > 9999) return undefined;
  const suffix = zone === 'UTC' && offset === 0 ? 'Z' : offsetText(offset);
  const clock = `${pad(at.getUTCHours())}:${pad(at.getUTCMinutes())}:${pad(at.getUTCSeconds())}`;
  return `${pad(year, 4)}-${pad(at.getUTCMonth() + 1)}-${pad(at.getUTCDate())}T${clock}${instant.fraction}${suffix}`;
}

/** A moment as a terminal line's clock shows it, HH:MM:SS in the zone (local when none is named). */
export function clockIn(date: Date, zone: ZoneName = 'local'): string {
  const w = wallClock(date, zone);
  return `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}
