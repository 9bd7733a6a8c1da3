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

/** One rewritable line on a terminal's stderr: shown, rewritten, cleared (at most one per stderr). */
export interface StatusLine {
  show(text: string): void;
  clear(): void;
}

/**
 * The status line of a run: nothing at all unless stderr is a terminal (not TERM=dumb: no line to
 * rewrite there) and not --quiet; nothing drawn while a pager has the terminal.
 */
export function statusLine(ctx: OutputContext & { env?: Record<string, string | undefined> }): StatusLine {
  if (!ctx.io.stderrIsTTY || ctx.globals.quiet || ctx.env?.TERM === 'dumb') return { show() {}, clear() {} };
  const stderr = ctx.io.stderr;
  const clear = () => {
    if (drawn.get(stderr) !== clear) return;
    drawn.delete(stderr);
    stderr.write(CLEAR_LINE);
  };
  return {
    show(text) {
      if (paged.has(stderr)) return;
      // Never wider than the terminal: a wrapped line could not be cleared with \r.
      stderr.write(CLEAR_LINE + text.slice(0, Math.max(1, ctx.io.columns - 1)));
      drawn.set(stderr, clear);
    },
    clear,
  };
}

// The stderr streams whose terminal a pager has taken (pager.ts): a line drawn there would land in
// the middle of the pager's screen.
const paged = new WeakSet<OutStream>();

/** A pager has the terminal of this stderr from now on: the status line is cleared and stays off. */
export function pagerHasTerminal(stderr: OutStream): void {
  drawn.get(stderr)?.();
  paged.add(stderr);
}

export function createProgress(ctx: OutputContext & { env?: Record<string, string | undefined> }): Progress {
  const line = statusLine(ctx);
  return {
    update: ({ pages, items }) => line.show(`Fetching… ${plural(pages, 'page')}, ${plural(items, 'item')}`),
    done: line.clear,
  };
}
