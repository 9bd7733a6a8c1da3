// Which base URLs may carry the key: https://, or plain http:// to loopback (or with --allow-http).
// A rule of the profile's base URL, checked where it is resolved (resolve.ts) and again by the client.
import { UsageError } from '../base/errors';

/** A URL's hostname without the brackets of an IPv6 literal ("[::1]" → "::1"), as sockets take it. */
export function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped 127/8) and localhost: traffic that never leaves the machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = bareHost(hostname.toLowerCase()).replace(/\.$/, '');
  if (host === 'localhost' || host === '::1') return true;
  // WHATWG URL has already normalised 127.1, 0x7f.0.0.1 and friends to dotted quads.
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host);
}

/** UsageError unless the URL is https://, or http:// to loopback or with --allow-http. */
export function assertTransportAllowed(url: URL, allowHttp: boolean): void {
  if (url.protocol === 'https:') return;
  if (url.protocol !== 'http:') {
    throw new UsageError(`unsupported URL scheme "${url.protocol}" in ${url.origin}: use https:// (or http:// for a local server).`);
  }
  if (allowHttp || isLoopbackHost(url.hostname)) return;
  throw new UsageError(
    `refusing plain http:// to ${url.host}: your API key would travel in clear text to a non-loopback host.`,
    'use https://, or pass --allow-http if you accept that risk.',
  );
}
