// Forwarding an authentic delivery to --forward-to unchanged: the same method, body bytes and headers,
// less the hop-by-hop ones that describe the connection it arrived on rather than the message.
import type { Readable } from 'node:stream';
import type { RequestHead } from './save';
import { postRaw, withLength } from '../../../webhook/post';
import { LOOP_HEADER } from './loop';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'expect',
]);

/** The headers to send on, in their received order and case (a body read from a file had a Content-Length). */
function forwardHeaders(rawHeaders: string[], body: Buffer | Readable): string[] {
  const named = new Set<string>();
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    // Connection: x-foo makes x-foo hop-by-hop too.
    if (rawHeaders[i]!.toLowerCase() === 'connection') for (const n of rawHeaders[i + 1]!.split(',')) named.add(n.trim().toLowerCase());
  }
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!HOP_BY_HOP.has(name) && !named.has(name)) out.push(rawHeaders[i]!, rawHeaders[i + 1]!);
  }
  return Buffer.isBuffer(body) ? withLength(out, body) : out;
}

export type ForwardResult = { url: string; status: number } | { url: string; error: string };

export async function forwardDelivery(
  target: URL,
  req: RequestHead,
  /** In memory, or read back from its capture. */
  body: Buffer | Readable,
  timeoutMs: number,
  signal?: AbortSignal,
  /** This listen's loop mark (loop.ts), added to the headers. */
  mark?: string,
): Promise<ForwardResult> {
  try {
    const headers = forwardHeaders(req.rawHeaders, body);
    if (mark !== undefined) headers.push(LOOP_HEADER, mark);
    const res = await postRaw(target, headers, body, { method: req.method, timeoutMs, signal });
    return { url: target.href, status: res.status };
  } catch (err) {
    return { url: target.href, error: (err as Error).message };
  }
}
