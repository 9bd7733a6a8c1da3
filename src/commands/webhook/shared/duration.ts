// How the webhook commands show a duration (the option parser is durationOption in src/base/options.ts).

/** 1500 → "1.5 s", 250 → "250 ms", 60000 → "60 s". */
export function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}
