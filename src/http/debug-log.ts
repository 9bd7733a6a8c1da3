// --debug: one line per request and per response on stderr. Only the method, URL, status, size and
// timing are printed, never headers, so the Authorization header (the key) cannot leak.
import type { OutStream } from '../output/streams';
import { escapeOneLine, formatSeconds, statusLine } from './failures';
import { showUrl } from './url';

export interface DebugLog {
  request(method: string, url: URL): void;
  response(status: number, bytes: number, ms: number, location?: string): void;
  failure(what: string, ms: number): void;
  retry(retry: number, of: number, waitMs: number, reason: string): void;
}

const quiet: DebugLog = { request() {}, response() {}, failure() {}, retry() {} };

export function createDebugLog(stderr: OutStream, enabled: boolean): DebugLog {
  if (!enabled) return quiet;
  const line = (text: string) => void stderr.write(`${text}\n`);
  return {
    request: (method, url) => line(`> ${method} ${showUrl(url)}`),
    response: (status, bytes, ms, location) =>
      line(`< ${statusLine(status)} ${bytes} bytes ${ms}ms${location ? ` -> ${escapeOneLine(location)}` : ''}`),
    failure: (what, ms) => line(`< ${what} after ${ms}ms`),
    retry: (retry, of, waitMs, reason) => line(`! retry ${retry}/${of} in ${formatSeconds(waitMs)} after ${reason}`),
  };
}
