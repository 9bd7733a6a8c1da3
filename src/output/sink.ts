// Where every piece of output goes: stdout, whole lines per write (an interrupted run leaves whole
// lines), never interleaved with a progress line on the same terminal.
import { hint, type RunOutput } from './hint';
import { parsePath, type Path } from './paths';
import { clearProgressLine } from './progress';

/** What the output layer needs of a command's context; the signal, when given, stops long writes. */
export type OutputContext = RunOutput & { signal?: AbortSignal };

/** Writes text (or bytes) made of whole lines to stdout. */
export function emit(ctx: OutputContext, lines: string | Uint8Array): void {
  if (lines.length === 0) return;
  if (ctx.io.stdoutIsTTY) clearProgressLine(ctx);
  ctx.io.stdout.write(lines);
}

/**
 * Settles when stdout can take more: at once, unless a reader slower than us has let writes pile
 * up. A list awaits it between pages, so that paging waits for the reader and memory stays flat.
 */
export function drained(ctx: OutputContext): Promise<void> | undefined {
  const out = ctx.io.stdout;
  if (!out.writableNeedDrain || !out.once || !out.off) return undefined;
  // 'close' and 'error' too: a reader that went away never drains (bin/booking.js ends the run).
  const events = ['drain', 'close', 'error'] as const;
  return new Promise((resolve) => {
    const done = () => {
      for (const event of events) out.off!(event, done);
      resolve();
    };
    for (const event of events) out.once!(event, done);
  });
}

/** --fields, or undefined when not given. */
export function fieldList(ctx: OutputContext): string[] | undefined {
  const fields = ctx.globals.fields;
  return fields && fields.length > 0 ? fields : undefined;
}

export function fieldPaths(ctx: OutputContext): Path[] | undefined {
  return fieldList(ctx)?.map(parsePath);
}

/** An empty list says so on stderr, so a terminal user can tell "nothing" from "still waiting". */
export function noResults(ctx: OutputContext): void {
  if (ctx.io.stdoutIsTTY) clearProgressLine(ctx);
  hint(ctx, 'No results');
}
