// Parsers for option values: each throws commander's InvalidArgumentError, which becomes a one-line
// usage error (exit 2) naming the option.
import { InvalidArgumentError } from 'commander';

export function intOption(min: number, max: number): (value: string) => number {
  return (value: string) => {
    if (!/^\s*[+]?\d+\s*$/.test(value)) throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    const n = Number(value);
    if (!Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}.`);
    }
    return n;
  };
}

export function secondsOption(min: number, max: number): (value: string) => number {
  return (value: string) => {
    if (!/^\s*[+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value))
      throw new InvalidArgumentError(`expected seconds, a number above ${min} up to ${max}.`);
    const n = Number(value);
    if (!(n > min) || n > max) throw new InvalidArgumentError(`expected seconds, a number above ${min} up to ${max}.`);
    return n;
  };
}

/** "a,b.c" → ["a", "b.c"]; spaces and a trailing comma are dropped, other empty entries are an error. */
export function listOption(value: string): string[] {
  const parts = value
    .replace(/,\s*$/, '')
    .split(',')
    .map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === ''))
    throw new InvalidArgumentError('expected a comma-separated list such as uid,status,attendee.name.');
  return parts;
}

/** --json's optional list: `--json` alone (or `--json=`) is true, `--json uid,status` the fields (a trailing comma ignored). */
export function jsonOption(value: string): true | string[] {
  // Empty (`--json`, `--json=`): every field. Commas alone are a list with nothing in it, refused.
  return value.trim() === '' ? true : listOption(value);
}

export function nonEmpty(what: string): (value: string) => string {
  return (value: string) => {
    if (value.trim() === '') throw new InvalidArgumentError(`${what} must not be empty.`);
    return value;
  };
}

/**
 * For repeatable options: collects every occurrence. Each occurrence is added to the list this made
 * for the run (copying the list each time was quadratic: 20,000 `--set` took seconds of CPU); a
 * default list the option was declared with is copied once, never changed.
 */
export function collect<T>(parse: (v: string) => T): (value: string, previous: T[] | undefined) => T[] {
  const made = new WeakSet<T[]>();
  return (value, previous) => {
    const list = previous !== undefined && made.has(previous) ? previous : [...(previous ?? [])];
    made.add(list);
    list.push(parse(value));
    return list;
  };
}

const SIZE_UNITS: Record<string, number> = {
  '': 1,
  b: 1,
  k: 1024,
  kb: 1024,
  kib: 1024,
  m: 1024 ** 2,
  mb: 1024 ** 2,
  mib: 1024 ** 2,
  g: 1024 ** 3,
  gb: 1024 ** 3,
  gib: 1024 ** 3,
  t: 1024 ** 4,
  tb: 1024 ** 4,
  tib: 1024 ** 4,
};

/** "500M", "1GiB", "2048": a size in bytes (units are powers of 1024). */
export function sizeOption(value: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(value);
  const unit = m ? SIZE_UNITS[m[2]!.toLowerCase()] : undefined;
  const n = m && unit !== undefined ? Math.floor(Number(m[1]) * unit) : NaN;
  if (!Number.isSafeInteger(n))
    throw new InvalidArgumentError('expected a size such as 500M, 2G or 1048576 (bytes; K, M, G, T are powers of 1024).');
  return n;
}

/** sizeOption, above zero (a limit of nothing would refuse every response). */
export function byteSizeOption(value: string): number {
  const n = sizeOption(value);
  if (n <= 0) throw new InvalidArgumentError('expected a size above 0, such as 1048576, 512K or 64M.');
  return n;
}

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, '': 1000, m: 60_000, h: 3_600_000 };

/**
 * A DURATION option (`send --delay`, `listen --respond-delay`, `bookings watch --interval`): a number
 * with a unit, as `sleep` and Go write them (250ms, 1.5s, 2m, 1h), or bare seconds, parsed to
 * milliseconds from minMs to maxMs. Each option has a documented maximum, so a typo (5000 meaning
 * ms) cannot hold a run for hours.
 */
export function durationOption(maxMs: number, minMs = 0): (value: string) => number {
  const show = (ms: number) => (ms % 3_600_000 === 0 ? `${ms / 3_600_000}h` : ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`);
  const range = minMs > 0 ? `from ${show(minMs)} to ${show(maxMs)}` : `at most ${show(maxMs)}`;
  // Examples the option takes: a message that suggests a value it refuses would send the user round.
  const examples = DURATION_EXAMPLES.filter((e) => {
    const ms = durationMs(e);
    return ms !== undefined && ms >= minMs && ms <= maxMs;
  }).slice(0, 3);
  const expected = `expected a duration such as ${examples.slice(0, -1).join(', ')} or ${examples.at(-1)} (${range}).`;
  return (value: string) => {
    const ms = durationMs(value);
    if (ms === undefined || !(ms >= minMs && ms <= maxMs)) throw new InvalidArgumentError(expected);
    return ms;
  };
}

const DURATION_EXAMPLES = ['250ms', '1.5s', '10', '30s', '2m', '1h'];

function durationMs(value: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|h|)\s*$/i.exec(value);
  return m ? Math.round(Number(m[1]) * DURATION_UNITS[m[2]!.toLowerCase()]!) : undefined;
}

/**
 * A date or date-time the user typed (ISO 8601: 2026-11-28, 2026-11-28T09:00:00Z) in milliseconds since
 * the epoch; undefined when it is not one. Date.parse alone takes any day up to 31 in any month
 * (2026-11-31 is 1 December): a day past the month's end is no date.
 */
export function calendarTime(value: string): number | undefined {
  const m = /^\s*(\d{4})-(\d\d)-(\d\d)/.exec(value);
  if (!m) return undefined;
  const t = Date.parse(value.trim());
  if (Number.isNaN(t)) return undefined;
  const daysInMonth = new Date(Date.UTC(Number(m[1]), Number(m[2]), 0)).getUTCDate();
  return Number(m[3]) <= daysInMonth ? t : undefined;
}
