// Fitting columns into the terminal's width, gh-style: low-priority (rightmost) columns are dropped
// until the rest fit at their minimum widths, then the spare width is shared out, so narrow columns
// show whole and only the widest ones are cut.

export interface FitColumn {
  /** Widest cell or header. */
  natural: number;
  /** Narrowest it may be cut to (ids and times want all of theirs). */
  min: number;
}

/** Widths for the leading columns that fit (at least one); `gap` is the space between columns. */
export function fitWidths(columns: FitColumn[], available: number, gap: number): number[] {
  if (columns.length === 0) return [];
  const mins = columns.map((c) => Math.min(c.natural, c.min));
  // The longest run of leading columns whose narrowest widths fit, summed once (a list of 80,000
  // fields summed again for each column left out took seconds).
  let count = 0;
  let used = 0;
  for (; count < mins.length; count++) {
    const next = used + (count > 0 ? gap : 0) + mins[count]!;
    if (next > available) break;
    used = next;
  }
  if (count === 0) return [Math.max(1, available)];

  const widths = mins.slice(0, count);
  let spare = available - used;
  // Water-filling: the columns that still want width each get an even share of what is left,
  // never more than they want, until nothing is left or nobody wants more.
  for (;;) {
    const wanting = widths.map((w, i) => (w < columns[i]!.natural ? i : -1)).filter((i) => i >= 0);
    if (wanting.length === 0 || spare <= 0) break;
    const share = Math.max(1, Math.floor(spare / wanting.length));
    for (const i of wanting) {
      const add = Math.min(share, columns[i]!.natural - widths[i]!, spare);
      widths[i]! += add;
      spare -= add;
      if (spare === 0) break;
    }
  }
  return widths;
}
