// Words that messages of every layer share.

/** "1 item", "3 items". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A duration as messages show it: 1500 → "1.5 s", 250 → "250 ms", 60000 → "60 s" (the option parser is durationOption, options.ts). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * A byte count as messages show it: 67108864 → "64 MiB", 4096 → "4 KiB", 100 → "100 bytes" (whole
 * units only: a bound is shown exactly). `rough`, for a size found rather than set (a file's): to one
 * decimal, 3435973837 → "3.2 GiB".
 */
export function formatBytes(n: number, rough = false): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (n >= size && (rough || n % size === 0)) return `${Number((n / size).toFixed(rough ? 1 : 0))} ${unit}`;
  }
  return `${n} bytes`;
}
