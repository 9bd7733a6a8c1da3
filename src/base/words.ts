// Words that messages of every layer share.

/** "1 item", "3 items". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** A duration as messages show it: 1500 → "1.5 s", 250 → "250 ms", 60000 → "60 s" (the option parser is durationOption, options.ts). */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
