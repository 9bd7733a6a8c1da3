// Never silent while waiting: on a terminal, a request with no answer after about a second says so on
// stderr (what, where, for how long, and how to stop), rewritten each second and cleared as soon as
// the answer (or a failure) comes; so does the OS keyring, and the wait before a retry. A pipe,
// --quiet and TERM=dumb get nothing; a pager that has the terminal too (progress.ts).
import type { GlobalOptions } from '../base/globals';
import type { IOStreams } from './streams';
import { statusLine } from './progress';

type NoteContext = { io: IOStreams; globals: GlobalOptions; env?: Record<string, string | undefined> };

/** How long a request may go unanswered before the note shows. */
const WAITING_AFTER_MS = 1000;
/** A wait shorter than this before a retry goes by without a note (a back-off of a fraction of a second). */
const RETRY_NOTE_FROM_MS = 1000;

/**
 * A status line drawn `firstAfterMs` from now and redrawn each second with `text(startedAt)`, until
 * the function returned is called (which clears it if it was drawn).
 */
function ticking(ctx: NoteContext, firstAfterMs: number, text: (startedAt: number) => string): () => void {
  const line = statusLine(ctx);
  const started = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    line.show(text(started));
    // unref: what is waited for keeps the process alive, never the note.
    timer = setTimeout(tick, 1000);
    timer.unref?.();
  };
  timer = setTimeout(tick, firstAfterMs);
  timer.unref?.();
  return () => {
    clearTimeout(timer);
    line.clear();
  };
}

/**
 * Starts the note's clock for one request: `what` is the request (`GET /api/v1/me`), `where` the host
 * (`127.0.0.1:4010`). Returns the function that ends it (clears the line if it was drawn).
 */
export function waitingNote(ctx: NoteContext, what: string, where: string): () => void {
  if (!ctx.io.stderrIsTTY) return () => {};
  return ticking(
    ctx,
    WAITING_AFTER_MS,
    // The request last: on a narrow terminal a long path is what the line's end cuts, not the way out.
    (started) => `Waiting for ${where} (${Math.round((Date.now() - started) / 1000)}s, Ctrl-C to stop): ${what}`,
  );
}

/** The note for the OS keyring: a locked one, or a slow bus, may take BOOKING_KEYRING_TIMEOUT (5 s) to answer. */
export function keyringNote(ctx: NoteContext): () => () => void {
  return () => waitingNote(ctx, 'the API key', 'the OS keyring');
}

/**
 * The wait before a retry, which no request covers: on a terminal, said at once and counted down
 * each second (`why` is what the last attempt got: `429 Too Many Requests`, `ECONNRESET`). Returns
 * the function that ends it.
 */
export function retryNote(
  ctx: NoteContext,
  what: string,
  where: string,
  wait: { why: string; retry: number; retries: number; ms: number },
): () => void {
  if (!ctx.io.stderrIsTTY || wait.ms < RETRY_NOTE_FROM_MS) return () => {};
  return ticking(ctx, 0, (started) => {
    const left = Math.max(1, Math.ceil((started + wait.ms - Date.now()) / 1000));
    // The countdown first: on an 80-column terminal a long path would otherwise push it off the line.
    return `Retry ${wait.retry}/${wait.retries} in ${left}s: ${what} got ${wait.why} (${where}); Ctrl-C to stop`;
  });
}
