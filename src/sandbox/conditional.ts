// The sandbox's answers carry validators, as a real service's may, so a client can poll kindly: an
// ETag (a digest of the body: it changes exactly when the answer does) and a Last-Modified (when the
// world last changed; HTTP dates count whole seconds, so a client that can should prefer the ETag).
// A GET whose If-None-Match names the ETag, or, without one, whose If-Modified-Since is not before
// Last-Modified, is answered 304 Not Modified with no body (RFC 9110, 13.1).
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Reply } from './core';

export function conditionalReply(req: IncomingMessage, body: string, lastModifiedMs: number, headers: Record<string, string>): Reply {
  const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
  const lastModified = new Date(Math.floor(lastModifiedMs / 1000) * 1000).toUTCString();
  const validators = { ...headers, etag, 'last-modified': lastModified, 'cache-control': 'no-cache' };
  const match = req.headers['if-none-match'];
  const since = req.headers['if-modified-since'];
  const fresh =
    match !== undefined
      ? match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag || tag.trim() === '*')
      : since !== undefined && Date.parse(since) >= Date.parse(lastModified);
  if (fresh) return { status: 304, body: '', headers: validators };
  return { status: 200, body, headers: validators };
}
