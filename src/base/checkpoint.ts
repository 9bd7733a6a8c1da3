// Loops over input a user sizes (captures in folders, HAR entries, --set lines, scenario steps) must let
// Ctrl-C in: bin/booking.js sees a signal only when the event loop turns, and a loop that awaits only
// settled promises (a verdict, a write that did not block) never turns it. A run of 371,000 HAR
// entries ended 4-12 s after Ctrl-C with every verdict printed (issue 33). Every such loop calls the
// checkpoint once per item: at most every SLICE_MS of work the loop yields a turn, and an aborted run
// stops there with InterruptedError (exit 130).
import { InterruptedError } from './errors';

const SLICE_MS = 20;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A checkpoint for one loop: `await check()` once per item. */
export function checkpoint(signal: AbortSignal | undefined): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last >= SLICE_MS) {
      await nextTurn();
      last = performance.now();
    }
    if (signal?.aborted) throw new InterruptedError();
  };
}
