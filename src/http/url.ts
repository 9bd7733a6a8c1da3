// Where the client may send the key: URLs are joined under the base URL (keeping its path prefix) and
// must stay on the base URL's origin; which schemes and hosts may carry it is config/transport.ts.
import { FailureError } from '../base/errors';

/** The path and query the user recognises in messages (no scheme, host or credentials). */
export function displayPath(url: URL): string {
  return url.pathname + url.search;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/**
 * "/api/v1/me" (or "api/v1/me") under the base URL, keeping its path prefix: base
 * https://host/prefix/ gives https://host/prefix/api/v1/me. Absolute and protocol-relative URLs are
 * resolved as URLs, so that the origin check sees where they really point.
 */
export function joinUrl(base: URL, pathOrUrl: string): URL {
  if (ABSOLUTE.test(pathOrUrl) || pathOrUrl.startsWith('//')) return new URL(pathOrUrl, base);
  const prefix = base.pathname.replace(/\/+$/, '');
  const rel = pathOrUrl.startsWith('/') ? pathOrUrl : `/${pathOrUrl}`;
  return new URL(prefix + rel, base.origin);
}

/**
 * A next-page URL from a server ("/api/v1/bookings?cursor=…", Link targets, absolute URLs). A server
 * behind a path prefix may or may not include the prefix in its links; both resolve to the same page.
 */
export function resolvePageUrl(value: string, base: URL, relativeTo: URL = base): URL {
  if (ABSOLUTE.test(value) || value.startsWith('//')) return new URL(value, base);
  if (!value.startsWith('/')) return new URL(value, relativeTo);
  const prefix = base.pathname.replace(/\/+$/, '');
  const rest = prefix !== '' && value.startsWith(prefix) ? value.slice(prefix.length) : undefined;
  return rest !== undefined && (rest === '' || /^[/?#]/.test(rest)) ? new URL(value, base.origin) : joinUrl(base, value);
}

/**
 * Adds query parameters (undefined left out), replacing same-named ones already in the URL. The
 * existing query is kept byte for byte; new values are percent-encoded (space as %20, not "+").
 */
export function withQuery(url: URL, query: Record<string, string | number | undefined> | undefined): URL {
  const entries = Object.entries(query ?? {}).filter((e): e is [string, string | number] => e[1] !== undefined);
  if (entries.length === 0) return url;
  const names = new Set(entries.map(([k]) => k));
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !names.has(decodeQueryName(part)));
  const added = entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  const out = new URL(url.href);
  out.search = [...kept, ...added].join('&');
  return out;
}

function decodeQueryName(part: string): string {
  const name = part.split('=', 1)[0]!.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/** FailureError unless the URL is on the base URL's origin: the key is never sent anywhere else. */
export function assertSameOrigin(url: URL, base: URL, what: string): void {
  if (url.origin === base.origin) return;
  throw new FailureError(`${what}: ${url.origin} is not the base URL's origin (${base.origin}); not sending your API key there.`);
}

/** An absolute URL as shown in messages, without any user:password part. */
export function showUrl(url: URL): string {
  return url.origin + url.pathname + url.search;
}

/**
 * A "?a=1&b=2" reference applied to a request URL: its parameters replace same-named ones, the rest of
 * the request's query stays. Both are kept byte for byte (a server's token is sent back as it wrote it).
 */
export function mergeQuery(url: URL, reference: string): URL {
  const added = reference
    .replace(/^\?/, '')
    .replace(/#.*$/s, '')
    .split('&')
    .filter((p) => p !== '');
  const names = new Set(added.map(decodeQueryName));
  const kept = url.search
    .slice(1)
    .split('&')
    .filter((part) => part !== '' && !names.has(decodeQueryName(part)));
  const out = new URL(url.href);
  out.search = [...kept, ...added].join('&');
  return out;
}

/** True when a page URL rather than a cursor: an http(s) URL, a path from "/", or a "?query". */
export function isPageUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) || value.startsWith('/') || value.startsWith('?');
}
