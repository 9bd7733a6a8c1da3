// Reading a response body with a ceiling: a body larger than --max-response-bytes (an endless
// stream, a runaway export) is an error naming the request, after reading at most that much, rather
// than memory that grows until the timeout or the machine gives out.
import type { Dispatcher } from 'undici';
import { FailureError } from '../errors';

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

/** "64 MiB", "512 KiB", "100 bytes". */
export function formatBytes(n: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (n >= size && n % size === 0) return `${n / size} ${unit}`;
  }
  return `${n} bytes`;
}

/** The whole body, or a FailureError (message from `tooLarge`) once it passes `max` bytes. */
export async function readBody(res: Dispatcher.ResponseData, max: number, tooLarge: () => string): Promise<Buffer> {
  const declared = Number(res.headers['content-length']);
  const refuse = () => {
    res.body.destroy();
    // One line, no hint: the message names the option that raises the limit.
    return new FailureError(tooLarge());
  };
  if (Number.isFinite(declared) && declared > max) throw refuse();
  // A declared length is read into one buffer as the chunks come: a big body is held once, not
  // twice (its chunks and their concatenation) at the end of the read.
  let whole = Number.isInteger(declared) && declared > 64 * 1024 ? Buffer.allocUnsafeSlow(declared) : undefined;
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as AsyncIterable<Buffer>) {
    if (total + chunk.length > max) throw refuse();
    if (whole && total + chunk.length <= whole.length) chunk.copy(whole, total);
    else {
      // More than declared (undici refuses that, but not every dispatcher is undici): collected.
      if (whole) chunks.push(whole.subarray(0, total));
      whole = undefined;
      chunks.push(chunk);
    }
    total += chunk.length;
  }
  if (whole) return total === whole.length ? whole : whole.subarray(0, total);
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
}
