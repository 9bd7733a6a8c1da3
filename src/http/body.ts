// Reading a response body with a ceiling: a body larger than --max-response-bytes (an endless
// stream, a runaway export) is an error naming the request, after reading at most that much, rather
// than memory that grows until the timeout or the machine gives out.
import type { Dispatcher } from 'undici';
import { FailureError } from '../base/errors';

export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;

export interface WholeResponse {
  status: number;
  /** Lower-cased names; a repeated header's values joined with ", ". */
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * One request through `dispatcher` and its whole body, or a FailureError (message from `tooLarge`)
 * once the body passes `max` bytes; aborted with `signal`'s reason. undici's low-level handler API
 * rather than dispatcher.request(): no stream, async iterator or promise per chunk, which a listing
 * of thousands of pages would pay for every page.
 */
export function requestWhole(
  dispatcher: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  max: number,
  tooLarge: () => string,
  signal: AbortSignal,
): Promise<WholeResponse> {
  return new Promise((resolve, reject) => {
    let abort: ((err?: Error) => void) | undefined;
    let settled = false;
    let status = 0;
    let headers: Record<string, string> = {};
    // A declared length is read into one buffer as the chunks come: a big body is held once, not
    // twice (its chunks and their concatenation) at the end of the read.
    let whole: Buffer | undefined;
    const chunks: Buffer[] = [];
    let total = 0;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', onAbort);
      fn();
    };
    const reason = () => (signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const onAbort = () => (abort ? abort(reason()) : settle(() => reject(reason())));
    signal.addEventListener('abort', onAbort, { once: true });
    const tooBig = () => {
      const err = new FailureError(tooLarge());
      abort?.(err);
      settle(() => reject(err));
    };
    dispatcher.dispatch(opts, {
      onConnect(a) {
        abort = a;
        if (signal.aborted) a(reason());
      },
      onHeaders(statusCode, raw) {
        // 1xx: informational, the response is still to come.
        if (statusCode < 200) return true;
        status = statusCode;
        headers = flatHeaders(raw);
        const declared = Number(headers['content-length']);
        if (Number.isFinite(declared) && declared > max) {
          tooBig();
          return false;
        }
        whole = Number.isInteger(declared) && declared > 64 * 1024 ? Buffer.allocUnsafeSlow(declared) : undefined;
        return true;
      },
      onData(chunk) {
        if (total + chunk.length > max) {
          tooBig();
          return false;
        }
        if (whole && total + chunk.length <= whole.length) chunk.copy(whole, total);
        else {
          // More than declared (undici refuses that, but not every dispatcher is undici): collected.
          if (whole) chunks.push(whole.subarray(0, total));
          whole = undefined;
          chunks.push(chunk);
        }
        total += chunk.length;
        return true;
      },
      onComplete() {
        const body = whole
          ? total === whole.length
            ? whole
            : whole.subarray(0, total)
          : chunks.length === 1
            ? chunks[0]!
            : Buffer.concat(chunks, total);
        settle(() => resolve({ status, headers, body }));
      },
      onError(err) {
        settle(() => reject(err));
      },
    });
  });
}

/** Raw header pairs (buffers, or strings from a mock) as lower-cased names to values. */
function flatHeaders(raw: (Buffer | string | string[])[] | null): Record<string, string> {
  const out: Record<string, string> = {};
  if (!raw) return out;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = String(raw[i]).toLowerCase();
    const v = raw[i + 1]!;
    const value = typeof v === 'string' ? v : Array.isArray(v) ? v.join(', ') : v.toString('latin1');
    out[name] = Object.hasOwn(out, name) ? `${out[name]}, ${value}` : value;
  }
  return out;
}
