// The "Fetching… 3 pages, 250 items" line on stderr while a list is paged. A plain \r-rewritten line
// rather than a spinner: no timers or signal handlers to tear down, and nothing to draw when nothing
// happens. Only on a terminal stderr (not TERM=dumb) and without --quiet.
import type { GlobalOptions } from '../base/globals';
import type { IOStreams, OutStream } from './streams';
import { plural } from '../base/words';

type OutputContext = { io: IOStreams; globals: GlobalOptions };

export interface Progress {
  update(info: { pages: number; items: number }): void;
  /** Clears the line; safe to call more than once. */
  done(): void;
}

const CLEAR_LINE = '\r\x1b[2K';

// The line currently drawn on each stderr, so that a writer about to print to the same terminal can
// clear it first instead of appending its rows to the progress text.
const drawn = new WeakMap<OutStream, () => void>();

/** Clears the progress line if one is on screen; the next update draws it again below the output. */
export function clearProgressLine(ctx: OutputContext): void {
  drawn.get(ctx.io.stderr)?.();
}

export function createProgress(ctx: OutputContext & { env?: Record<string, string | undefined> }): Progress {
  // TERM=dumb (an editor's shell, some CI logs): no line to rewrite, so no progress line at all.
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || ctx.env?.TERM === 'dumb') return { update() {}, done() {} };
  const stderr = ctx.io.stderr;
  const clear = () => {
    if (drawn.get(stderr) !== clear) return;
    drawn.delete(stderr);
    stderr.write(CLEAR_LINE);
  };
  return {
    update({ pages, items }) {
      const text = `Fetching… ${plural(pages, 'page')}, ${plural(items, 'item')}`;
      // Never wider than the terminal: a wrapped line could not be cleared with \r.
      stderr.write(CLEAR_LINE + text.slice(0, Math.max(1, ctx.io.columns - 1)));
      drawn.set(stderr, clear);
    },
    done: clear,
  };
}
