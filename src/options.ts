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
    if (!/^\s*[+]?(\d+(\.\d*)?|\.\d+)\s*$/.test(value)) throw new InvalidArgumentError(`expected seconds, a number above ${min} up to ${max}.`);
    const n = Number(value);
    if (!(n > min) || n > max) throw new InvalidArgumentError(`expected seconds, a number above ${min} up to ${max}.`);
    return n;
  };
}

/** "a,b.c" → ["a", "b.c"]; empty entries are an error. */
export function listOption(value: string): string[] {
  const parts = value.split(',').map((p) => p.trim());
  if (parts.length === 0 || parts.some((p) => p === '')) throw new InvalidArgumentError('expected a comma-separated list such as uid,status,attendee.name.');
  return parts;
}

export function nonEmpty(what: string): (value: string) => string {
  return (value: string) => {
    if (value.trim() === '') throw new InvalidArgumentError(`${what} must not be empty.`);
    return value;
  };
}

/** For repeatable options: collects every occurrence. */
export function collect<T>(parse: (v: string) => T): (value: string, previous: T[] | undefined) => T[] {
  return (value, previous) => [...(previous ?? []), parse(value)];
}

/** A size in bytes: a whole number, or with a KiB/MiB/GiB suffix (k, m, g, kb, mib…: powers of 1024). */
export function byteSizeOption(value: string): number {
  const m = /^\s*(\d+)\s*(k|kb|kib|m|mb|mib|g|gb|gib)?\s*$/i.exec(value);
  const unit = (m?.[2] ?? '').toLowerCase()[0];
  const n = m ? Number(m[1]) * (unit === 'k' ? 2 ** 10 : unit === 'm' ? 2 ** 20 : unit === 'g' ? 2 ** 30 : 1) : NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError('expected a size in bytes, such as 1048576, 512KiB or 64MiB.');
  return n;
}
