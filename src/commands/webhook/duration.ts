// DURATION option values of the webhook commands (`send --delay`, `listen --respond-delay`): a number
// with a unit, as `sleep` and Go write them (250ms, 1.5s, 2m), or bare seconds. Each option has a
// documented maximum, so a typo (5000 meaning ms) cannot hold a run for hours.
import { InvalidArgumentError } from 'commander';

const UNITS: Record<string, number> = { ms: 1, s: 1000, '': 1000, m: 60_000 };

/** A parser to milliseconds, from 0 up to maxMs. */
export function durationOption(maxMs: number): (value: string) => number {
  const expected = `expected a duration such as 250ms, 1.5s or 1m (at most ${formatDuration(maxMs)}).`;
  return (value: string) => {
    const m = /^\s*(\d+(?:\.\d+)?|\.\d+)\s*(ms|s|m|)\s*$/i.exec(value);
    if (!m) throw new InvalidArgumentError(expected);
    const ms = Math.round(Number(m[1]) * UNITS[m[2]!.toLowerCase()]!);
    if (!(ms <= maxMs)) throw new InvalidArgumentError(expected);
    return ms;
  };
}

/** 1500 → "1.5 s", 250 → "250 ms", 60000 → "60 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
