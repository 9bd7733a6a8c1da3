// The age check of timestamped schemes: a delivery signed longer ago than the tolerance is a replay
// (or an old capture), one signed too far ahead a wrong clock or a forged time. The vendors' libraries
// allow 5 minutes either way; `--at` judges an old capture as of when it arrived, `--ignore-age` not at all.

export interface AgeRule {
  toleranceMs: number;
  /** The time to judge at, in ms: now (asked at each delivery: listen runs for hours), or --at. */
  at(): number;
  /** --at was given: the reason says "at --at" rather than "now". */
  atGiven: boolean;
  ignore: boolean;
}

/** What is wrong with a delivery's timestamp (Unix seconds) under the rule, or undefined. */
export function ageProblem(timestamp: number, rule: AgeRule): { code: 'expired' | 'future'; text: string } | undefined {
  if (rule.ignore) return undefined;
  const signedMs = timestamp * 1000;
  const atMs = rule.at();
  const ageMs = atMs - signedMs;
  if (Math.abs(ageMs) <= rule.toleranceMs) return undefined;
  const when = `the timestamp ${timestamp} (${new Date(signedMs).toISOString().replace('.000Z', 'Z')})`;
  const tolerance = `the ${span(rule.toleranceMs)} tolerance (--tolerance)`;
  if (ageMs > 0) {
    const asOf = rule.atGiven ? ` at --at ${new Date(atMs).toISOString()}` : '';
    return {
      code: 'expired',
      text: `${when} is ${span(ageMs)} old${asOf}, beyond ${tolerance}: a replayed or old delivery (check an old capture as of its arrival with --at TIME, or --ignore-age)`,
    };
  }
  return {
    code: 'future',
    text: `${when} is ${span(-ageMs)} in the future, beyond ${tolerance}: the sender's clock is wrong, or the time was forged`,
  };
}

/** A span as a person reads it: "45 s", "12 min", "2 h 5 min", "3 days 4 h". */
function span(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const min = Math.floor(s / 60);
  if (min < 60) return s % 60 ? `${min} min ${s % 60} s` : `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return min % 60 ? `${h} h ${min % 60} min` : `${h} h`;
  const days = Math.floor(h / 24);
  return h % 24 ? `${days} days ${h % 24} h` : `${days} days`;
}
