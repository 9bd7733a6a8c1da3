// What listen refuses or cuts, said once per kind: the first time as a warning naming the sender, and
// at stop how many there were in all. A flood of bad senders (1,000 slowloris connections, a burst
// over the in-flight budget) would otherwise write one stderr line each, burying the deliveries'
// own lines (issue 33).
import type { Context } from '../../../context';

export class ListenWarnings {
  private readonly counts = new Map<string, number>();

  constructor(private readonly ctx: Context) {}

  /**
   * Counts one of `kind` (a phrase completing "N deliveries in all were …"), and writes `line` (one
   * warning, no newline) if it is the first of its kind.
   */
  once(kind: string, line: string): void {
    const n = (this.counts.get(kind) ?? 0) + 1;
    this.counts.set(kind, n);
    if (n === 1) this.ctx.io.stderr.write(`warning: ${line}\n`);
  }

  /** At stop: the count of each kind that happened more than once. */
  summary(): void {
    for (const [kind, n] of this.counts) if (n > 1) this.ctx.io.stderr.write(`warning: ${n} deliveries in all were ${kind}.\n`);
  }
}
