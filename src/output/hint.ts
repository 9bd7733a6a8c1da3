// The format in force and the hint line: what every writer asks of the run, with no more of the
// command context than its streams and global options (output/ sits below context.ts).
import type { GlobalOptions, OutputFormat } from '../base/globals';
import type { IOStreams } from './streams';
import { escapeControl } from './escape';
import { clearProgressLine } from './progress';

/** What the output layer needs of a run: its streams and global options. */
export interface RunOutput {
  io: IOStreams;
  globals: GlobalOptions;
}

/** The output format in force: explicit, else table on a terminal and tsv in a pipe. */
export function outputFormat(ctx: RunOutput): OutputFormat {
  return ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'tsv');
}

/** A hint or progress line on stderr, unless --quiet; control and bidi characters shown escaped. */
export function hint(ctx: RunOutput, line: string): void {
  if (ctx.globals.quiet) return;
  // A note in the middle of a listing (columns left out) starts on a line of its own, not after
  // the "Fetching…" text.
  clearProgressLine(ctx);
  ctx.io.stderr.write(`${escapeControl(line)}\n`);
}
