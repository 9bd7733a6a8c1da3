// --tz ZONE (or BOOKING_TZ, or the profile's `tz`): the zone time columns are shown in. A table shows
// times in it (the local zone when none is named); tsv and csv keep times as received unless a zone
// is named, and then write them as ISO 8601 with that zone's offset, so a script still reads an
// exact instant. JSON and ndjson always carry what the service sent.
import { UsageError } from '../base/errors';

/** A zone as given: `local` (the system's, or TZ), or a name Intl knows (`UTC`, `Europe/Berlin`). */
export type ZoneName = string;

/** The zone as the user named it, checked: `local`, `UTC` or an IANA name; anything else is exit 2. */
export function checkZone(text: string, from: string): ZoneName {
  const name = text.trim();
  if (name.toLowerCase() === 'local') return 'local';
  if (name !== '' && !/[^A-Za-z0-9_+\-/]/.test(name)) {
    try {
      // Intl's own spelling when only the case differs (`utc` → `UTC`), else the name as given: Intl
      // would rename some to their old names (Asia/Kolkata → Asia/Calcutta).
      const known = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
      return known.toLowerCase() === name.toLowerCase() ? known : name;
    } catch {}
  }
  throw new UsageError(
    `${from}: unknown time zone ${JSON.stringify(name)}; use local, UTC or an IANA name such as Europe/Berlin (see \`timedatectl list-timezones\`).`,
  );
}

// An ISO 8601 date-time with a zone (Z or an offset); one without a zone is shown as received.
const ISO_ZONED = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?)([Zz]|[+-]\d{2}(?::?\d{2})?)$/;

/** The instant an ISO 8601 date-time with a zone names; undefined for anything else. */
function instantOf(text: string): Date | undefined {
  const m = ISO_ZONED.exec(text);
  if (!m) return undefined;
  const zone =
    m[3]!.toUpperCase() === 'Z' ? 'Z' : m[3]!.replace(/^([+-]\d{2}):?(\d{2})?$/, (_, h: string, mm?: string) => `${h}:${mm ?? '00'}`);
  const date = new Date(`${m[1]}T${m[2]!.replace(',', '.')}${zone}`);
  return Number.isNaN(date.getTime()) ? undefined : date;
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

/** The date and time on a wall clock in the zone; `local` uses the Date's own local getters (no Intl). */
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
    });
    formatters.set(zone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, Number(p.value)]));
  return { year: parts.year!, month: parts.month!, day: parts.day!, hour: parts.hour!, minute: parts.minute!, second: parts.second! };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Minutes ahead of UTC as ISO 8601 writes them: `+01:00`, `-03:30`. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** `2026-11-23T08:00:00Z` → `2026-11-23 09:00` in the zone (seconds only when not :00); undefined if not such a time. */
export function shownTime(text: string, zone: ZoneName = 'local'): string | undefined {
  const date = instantOf(text);
  if (!date) return undefined;
  const w = wallClock(date, zone);
  const seconds = w.second === 0 ? '' : `:${pad(w.second)}`;
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)} ${pad(w.hour)}:${pad(w.minute)}${seconds}`;
}

/** `2026-11-23T08:00:00Z` → `2026-11-23T09:00:00+01:00` in the zone: the same instant, for scripts. */
export function isoInZone(text: string, zone: ZoneName): string | undefined {
  const date = instantOf(text);
  if (!date) return undefined;
  const w = wallClock(date, zone);
  // The offset is what the wall clock is ahead of UTC (milliseconds left out of both).
  const wall = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  const offset = Math.round((wall - Math.floor(date.getTime() / 1000) * 1000) / 60_000);
  const ms = date.getUTCMilliseconds();
  const fraction = ms === 0 ? '' : `.${pad(ms, 3)}`;
  const suffix = zone === 'UTC' && offset === 0 ? 'Z' : offsetText(offset);
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}${fraction}${suffix}`;
}

/** A moment as a terminal line's clock shows it, HH:MM:SS in the zone (local when none is named). */
export function clockIn(date: Date, zone: ZoneName = 'local'): string {
  const w = wallClock(date, zone);
  return `${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
}
