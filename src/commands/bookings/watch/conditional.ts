// Kinder polling: each page of the list is asked for again with If-None-Match (its ETag) or
// If-Modified-Since (its Last-Modified) when the service gave one, and a 304 Not Modified costs no
// parse: the bookings that page held last time count as seen, and the walk goes on from the next page
// it named. What is kept per page: its validator, its next cursor and the uids it held (references
// to strings the snapshot holds anyway); --state saves them, so that a run from cron is as kind as a
// long watch. The headers of the last answer are kept for the rate-limit reading (slowDownMs, below).
import type { HttpClient, HttpResponse, RequestOptions } from '../../../http/types';

export interface KnownPage {
  etag?: string;
  lastModified?: string;
  next?: string;
  uids: string[];
}

/** Thrown out of the walk by a 304: `page` is what that page held when it was last read. */
export class NotModified extends Error {
  constructor(readonly page: { next?: string; uids: readonly string[] }) {
    super('304 Not Modified');
  }
}

export class ConditionalPages {
  private readonly known = new Map<string, KnownPage>();
  /** The page being read in the current walk, until the walk moves on. */
  private reading: { key: string; page: KnownPage } | undefined;
  /** The headers of the last answer of the walk (304s included). */
  lastHeaders: Record<string, string> = {};
  /** Requests in the current poll. */
  requests = 0;
  /** Counts changes of what is known: --state is written again when it moved. */
  version = 0;

  /** The pages known, for --state. */
  pages(): IterableIterator<[string, KnownPage]> {
    return this.known.entries();
  }

  /** A page from --state. */
  load(key: string, page: KnownPage): void {
    this.known.set(key, page);
  }

  /** The client the walk uses: the given one, with validators sent and 304s turned into NotModified. */
  wrap(client: HttpClient): HttpClient {
    return {
      baseUrl: client.baseUrl,
      close: () => client.close(),
      get: async (pathOrUrl: string, ro: RequestOptions = {}): Promise<HttpResponse> => {
        this.finishPage();
        const key = `${pathOrUrl} ${JSON.stringify(ro.query ?? {})}`;
        const was = this.known.get(key);
        const headers: Record<string, string> = {};
        if (was?.etag) headers['if-none-match'] = was.etag;
        else if (was?.lastModified) headers['if-modified-since'] = was.lastModified;
        const conditional = Object.keys(headers).length > 0;
        this.requests++;
        const res = await client.get(pathOrUrl, conditional ? { ...ro, headers, notModified: true } : ro);
        this.lastHeaders = res.headers;
        if (res.status === 304 && was) throw new NotModified(was);
        const page: KnownPage = { etag: res.headers.etag, lastModified: res.headers['last-modified'], uids: [] };
        this.reading = { key, page };
        return res;
      },
    };
  }

  /** A new poll begins. */
  begin(): void {
    this.reading = undefined;
    this.requests = 0;
  }

  /** The page being read names this next page (PaginateOptions.onPage). */
  next(cursor: string | undefined): void {
    if (this.reading) this.reading.page.next = cursor;
  }

  /** A booking of the page being read. */
  holds(uid: string): void {
    this.reading?.page.uids.push(uid);
  }

  /** The page read last is done: kept when it had a validator. */
  finishPage(): void {
    const r = this.reading;
    this.reading = undefined;
    if (!r) return;
    const was = this.known.get(r.key);
    if (r.page.etag || r.page.lastModified) this.known.set(r.key, r.page);
    else if (!this.known.delete(r.key)) return;
    if (!was || !samePage(was, r.page)) this.version++;
  }

  /** A walk that failed or was cut short: nothing of its last page is kept. */
  abandon(): void {
    if (this.reading && this.known.delete(this.reading.key)) this.version++;
    this.reading = undefined;
  }
}

function samePage(a: KnownPage, b: KnownPage): boolean {
  return a.etag === b.etag && a.lastModified === b.lastModified && a.next === b.next && a.uids.join('\n') === b.uids.join('\n');
}

// Slowing down before a 429: the rate-limit headers of the last answer of a poll say how many requests
// are left and when the window resets. When fewer are left than the last poll needed, the next poll
// waits for the reset. Read: X-RateLimit-Remaining / X-RateLimit-Reset (GitHub, Twitter: the reset as
// epoch seconds; others: seconds from now), RateLimit-Remaining / RateLimit-Reset (IETF draft 6), and
// RateLimit: limit=100, remaining=0, reset=30 (draft 7) or "default";r=0;t=30 (draft 8 on).
interface RateLimitReading {
  remaining: number;
  /** Milliseconds from now until the window resets. */
  resetMs: number;
}

/** Epoch seconds start here (2001): a smaller reset is seconds from now. */
const EPOCH_SECONDS_FROM = 1_000_000_000;

function readRateLimit(headers: Record<string, string>, now: number): RateLimitReading | undefined {
  let remaining = number(headers['x-ratelimit-remaining'] ?? headers['ratelimit-remaining']);
  let reset = number(headers['x-ratelimit-reset'] ?? headers['ratelimit-reset']);
  const combined = headers.ratelimit;
  if (combined !== undefined) {
    remaining ??= number(/(?:^|[;,\s])(?:remaining|r)=(\d+)/.exec(combined)?.[1]);
    reset ??= number(/(?:^|[;,\s])(?:reset|t)=(\d+)/.exec(combined)?.[1]);
  }
  if (remaining === undefined || reset === undefined) return undefined;
  const resetMs = reset >= EPOCH_SECONDS_FROM ? reset * 1000 - now : reset * 1000;
  return { remaining, resetMs: Math.max(0, resetMs) };
}

/**
 * How long the next poll should wait at least: until the reset when fewer requests are left than the
 * last poll made; undefined when the headers ask for nothing.
 */
export function slowDownMs(headers: Record<string, string>, requestsPerPoll: number, now: number): number | undefined {
  const r = readRateLimit(headers, now);
  if (!r || r.remaining >= Math.max(1, requestsPerPoll)) return undefined;
  return r.resetMs;
}

function number(text: string | undefined): number | undefined {
  if (text === undefined || !/^\s*\d{1,15}\s*$/.test(text)) return undefined;
  return Number(text);
}
