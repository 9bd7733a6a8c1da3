// The paging engine every list command uses (octokit's habit): one entry, paginate(), an async
// iterator of items that follows next pages itself, so commands never see cursors; .pages() gives the
// same walk a page at a time, for a writer that writes a page with one call. Only the current page is
// held in memory. No undici here: this module talks to the HttpClient interface.
//
// Top-down: paginate() and fetchOnePage() (--no-paginate); the walk (walkPages) with its guards against
// loops; one page's request (fetchPage), where discovery (discovery.ts: rules as data, one function)
// finds its items and next page; when none is named, the end-of-walk decision (walk-end.ts).
import { checkpoint } from '../base/checkpoint';
import { CliError, FailureError, InterruptedError, UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';
import { plural } from '../base/words';
import { rawItemsOf, withRawItems } from '../output/json-raw';
import { discover, type NextPage } from './discovery';
import { escapeOneLine, requestName } from './failures';
import { cursorTooLong, fingerprint, idsFingerprint, itemsFingerprint, MAX_CURSOR_BYTES, spanFingerprint } from './page-fingerprint';
import type { HttpClient, HttpResponse } from './types';
import { assertSameOrigin, isPageUrl, joinUrl, mergeQuery, resolvePageUrl, showUrl, withQuery } from './url';
import { endOfWalk, type Counts } from './walk-end';

/** A walk over a listing: its items one at a time, or, with pages(), a page at a time. */
export interface Listing extends AsyncIterable<unknown> {
  /** The items page by page, as each page arrives (the last one cut to `limit`). */
  pages(): AsyncIterable<unknown[]>;
}

/**
 * Every item of the listing at `opts.path`, following next pages. It ends (exit 0) only when every
 * paging signal of the last response agrees the list ended (contract, third round: "Lists that never
 * lie"); otherwise it throws, after the items so far, naming where to resume.
 */
export function paginate(client: HttpClient, opts: PaginateOptions): Listing {
  return {
    pages: () => walkPages(client, opts),
    async *[Symbol.asyncIterator]() {
      for await (const items of walkPages(client, opts)) yield* items;
    },
  };
}

/** One page: the first (or the one at opts.cursor), with its items and where the next one is. */
export async function fetchOnePage(client: HttpClient, opts: PaginateOptions): Promise<Page> {
  return fetchPage(client, opts, startAt(opts.cursor, opts.cursorParam));
}

export interface PageInfo {
  pages: number;
  items: number;
  nextCursor?: string;
}

export interface PaginateOptions {
  path: string;
  query?: Record<string, string | undefined>;
  /** Total items to yield, across pages. */
  limit?: number;
  /** false: `limit` is not sent as the page size (an endpoint whose parameters are unknown: api). */
  sendLimit?: boolean;
  /** Query `limit` per request; default min(limit, 100) when limit is given, else not sent. */
  pageSize?: number;
  /** Start here: a cursor, or a page URL (http(s) or starting with "/"). */
  cursor?: string;
  cursorPath?: string;
  /** The query parameter a cursor goes back in (--cursor-param); default: the rule's, else `cursor`. */
  cursorParam?: string;
  /** The next cursor is this field of each page's last item (--cursor-from-last). */
  cursorFromLast?: string;
  itemsPath?: string;
  /** false: the caller cannot start part-way (watch compares the whole list), so no "resume with" hint. */
  resumable?: boolean;
  signal?: AbortSignal;
  onPage?(info: PageInfo): void;
  /** A line for stderr that is not an error: the list may be longer, or shorter, than its count. */
  onNote?(line: string): void;
  /** A --debug line: which of two disagreeing paging signals was followed. */
  onDebug?(line: string): void;
}

export interface Page {
  body: unknown;
  /**
   * The response without its body's bytes: a page is held while its items are written. The bytes stay
   * only through the items' raw texts (withRawItems), which a body over 8 MiB does not get.
   */
  response: Pick<HttpResponse, 'status' | 'url' | 'headers'>;
  items: unknown[];
  /** The items' fingerprint (itemsFingerprint), when asked for and there are items. */
  itemsKey?: string;
  /** The items' fingerprint by uid or id (idsFingerprint), when each has one and itemsKey is made. */
  idsKey?: string;
  next?: NextPage;
  /** The has-more flag, when the body has one that says true ("has_more: true"). */
  more?: string;
  /** For --debug: paging signals that disagreed, and which one was followed. */
  debug?: string;
  /** When no next page is named: the counts the body reports (walk-end.ts weighs them). */
  counts?: Counts;
}

const MAX_DEFAULT_PAGE = 100;

/** The walk: each page's items as it arrives, and the checks that keep a server from looping it. */
async function* walkPages(client: HttpClient, opts: PaginateOptions): AsyncGenerator<unknown[], void> {
  const limit = opts.limit;
  if (limit !== undefined && limit <= 0) return;
  let at = startAt(opts.cursor, opts.cursorParam);
  const fromStart = !opts.cursor;
  // Fixed-size fingerprints of every cursor/URL followed (a cycle of any length) and of every non-empty
  // page's items: a server that ignores the cursor and answers with the same items under a fresh cursor
  // (of another length, beside another request id) is stopped on the first repeat.
  const seen = new Set<string>();
  if (opts.cursor) seen.add(fingerprint(pageKey(client, at)));
  const itemSets = new Set<string>();
  const idSets = new Set<string>();
  let pages = 0;
  let yielded = 0;
  let emptyRun = 0;
  // Outside the loop so that they can be let go of while the next page is asked for: a value left in
  // the generator's frame over that wait outlives the collections made during it (docs/performance.md,
  // "The whole benchmark": the memory rows).
  let page: Page | undefined;
  let take: unknown[] | undefined;
  for (;;) {
    page = undefined;
    take = undefined;
    try {
      if (opts.signal?.aborted) throw new InterruptedError();
      page = await fetchPage(client, opts, at, true);
    } catch (err) {
      // Part-way only: a failure on the run's first page has nothing new to resume from.
      throw pages > 0 && opts.resumable !== false ? withResumeHint(err, at) : err;
    }
    if (page.debug) opts.onDebug?.(`paging: ${page.debug}`);
    if (page.itemsKey !== undefined) {
      const guessed = at.cursor !== undefined && at.param !== undefined && !opts.cursorParam;
      if (itemSets.has(page.itemsKey)) throw repeatedPage(page, at, guessed);
      itemSets.add(page.itemsKey);
      // The same items by uid or id, in the same order, with some field changed: the same page too.
      if (page.idsKey !== undefined) {
        if (idSets.has(page.idsKey)) throw repeatedPage(page, at, guessed);
        idSets.add(page.idsKey);
      }
      emptyRun = 0;
    } else emptyRun++;
    pages++;
    const remaining = limit === undefined ? page.items.length : limit - yielded;
    take = page.items.length <= remaining ? page.items : withRawItems(page.items.slice(0, remaining), rawItemsOf(page.items));
    const next = page.next;
    opts.onPage?.({ pages, items: yielded + take.length, nextCursor: next?.cursor ?? next?.url });
    if (take.length > 0) yield take;
    yielded += take.length;
    if (limit !== undefined && yielded >= limit) return;
    if (!next) return endOfWalk(page, opts, { items: yielded, pages, fromStart });
    // An empty page with a next page is followed (a service that filters server-side may send one
    // mid-list, as Slack and AWS document), but not forever.
    if (emptyRun >= MAX_EMPTY_PAGES)
      throw new FailureError(
        `${requestName('GET', page.response.url)}: ${emptyRun} empty pages in a row, each naming a next page; stopped after ${plural(yielded, 'item')}.`,
        opts.resumable === false ? undefined : resumeLine(next),
      );
    checkNext(client, page, next, yielded);
    const key = fingerprint(pageKey(client, next));
    if (seen.has(key)) {
      const value = escapeOneLine(next.cursor ?? next.url ?? '', 120);
      throw new FailureError(
        `${requestName('GET', page.response.url)}: the server sent the same next ${next.cursor ? 'cursor' : 'page URL'} twice (${value}); stopping instead of looping.`,
        'if the cursor is in another field, say which with --cursor-path.',
      );
    }
    seen.add(key);
    at = next;
  }
}

/** Empty pages in a row followed before giving up (each named a next page). */
const MAX_EMPTY_PAGES = 100;

/** A next page that may not be followed: on another origin, or a cursor past the size bound. */
function checkNext(client: HttpClient, page: Page, next: NextPage, received: number): void {
  const where = requestName('GET', page.response.url);
  const value = next.cursor ?? next.url ?? '';
  if (cursorTooLong(value)) {
    throw new FailureError(
      `${where}: the next ${next.cursor !== undefined ? 'cursor' : 'page URL'} is ${kib(Buffer.byteLength(value))}, over the ` +
        `${kib(MAX_CURSOR_BYTES)} a cursor may be; stopped after ${plural(received, 'item')}.`,
    );
  }
  if (next.url !== undefined) {
    const target = resolvePageUrl(next.url, client.baseUrl);
    assertSameOrigin(target, client.baseUrl, `${where}: the next page link ${showUrl(target)}`);
  }
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024).toLocaleString('en')} KiB`;

/** A page already sent: stop, naming the cursor and, for a parameter guessed by convention, that guess. */
function repeatedPage(page: Page, at: NextPage, guessed: boolean): FailureError {
  const value = escapeOneLine(at.cursor ?? at.url ?? '', 120);
  const what =
    at.cursor !== undefined
      ? `next cursor ${value}${guessed ? ` sent as ?${escapeOneLine(at.param!, 40)}=, the parameter its field's convention names` : ''}`
      : `next page URL ${value}`;
  return new FailureError(
    `${requestName('GET', page.response.url)}: the server sent a page it had already sent (${what}); stopping instead of looping.`,
    guessed
      ? 'the API may read the cursor from another parameter: name it with --cursor-param <name>; if the cursor is in another field, say which with --cursor-path.'
      : 'if the cursor is in another field, say which with --cursor-path; if the API takes it in another parameter, name it with --cursor-param.',
  );
}

function startAt(cursor: string | undefined, param: string | undefined): NextPage {
  if (!cursor) return {};
  if (cursorTooLong(cursor))
    throw new UsageError(`--cursor is ${kib(Buffer.byteLength(cursor))}, over the ${kib(MAX_CURSOR_BYTES)} a cursor may be.`);
  if (isPageUrl(cursor)) return { url: cursor };
  return param === undefined || param === 'cursor' ? { cursor } : { cursor, param };
}

function pageKey(client: HttpClient, at: NextPage): string {
  return at.url !== undefined ? `url ${resolvePageUrl(at.url, client.baseUrl).href}` : `${at.param ?? 'cursor'} ${at.cursor}`;
}

async function fetchPage(client: HttpClient, opts: PaginateOptions, at: NextPage, fingerprintItems = false): Promise<Page> {
  let response: HttpResponse;
  if (at.url?.startsWith('?')) {
    // --cursor "?after=…": a query for the listing's first request.
    response = await client.get(mergeQuery(withQuery(joinUrl(client.baseUrl, opts.path), firstQuery(opts)), at.url).href, {
      signal: opts.signal,
    });
  } else if (at.url !== undefined) {
    // A next URL is used as given: it already carries whatever the server wants repeated.
    response = await client.get(resolvePageUrl(at.url, client.baseUrl).href, { signal: opts.signal });
  } else {
    const query = firstQuery(opts);
    if (at.cursor !== undefined) query[at.param ?? 'cursor'] = at.cursor;
    response = await client.get(opts.path, { query, signal: opts.signal });
  }
  // The one parse every writer's items come from (JSON.parse's semantics, numbers kept exact).
  const body = response.jsonInTurns ? await response.jsonInTurns(opts.signal) : response.json();
  const { items, next, more, debug, counts } = discover(body, response.headers.link, opts);
  if (!items) throw itemsNotFound(response, body, opts.itemsPath);
  // A body's "?after=…" is a query for the current request: its other parameters (a filter, the page
  // size) still apply. Other relative targets ("page2", a Link's "?page=2") are resolved as URLs are.
  if (next?.url?.startsWith('?') && !response.headers.link) next.url = mergeQuery(response.url, next.url).href;
  else if (next?.url !== undefined && !/^https?:\/\/|^\//i.test(next.url))
    next.url = resolvePageUrl(next.url, client.baseUrl, response.url).href;
  // The items as the server sent them, when their bytes are what ndjson would write (src/output/json-raw.ts):
  // the writer copies them, and their span is hashed as it is.
  const raw = response.rawItems?.(items);
  const itemsKey =
    fingerprintItems && items.length > 0
      ? raw
        ? spanFingerprint(response.body, items.length, raw.span)
        : await itemsFingerprint(response.body, items, checkpoint(opts.signal))
      : undefined;
  const { status, url, headers } = response;
  const idsKey = itemsKey === undefined ? undefined : idsFingerprint(items);
  return { body, response: { status, url, headers }, items: withRawItems(items, raw), itemsKey, idsKey, next, more, debug, counts };
}

/** The query of the listing's first page: the command's parameters and the page size. */
function firstQuery(opts: PaginateOptions): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = { ...opts.query };
  const size = opts.pageSize ?? (opts.limit !== undefined && opts.sendLimit !== false ? Math.min(opts.limit, MAX_DEFAULT_PAGE) : undefined);
  if (size !== undefined) query.limit = String(size);
  return query;
}

function itemsNotFound(response: HttpResponse, body: unknown, itemsPath: string | undefined): FailureError {
  const where = requestName('GET', response.url);
  if (itemsPath) return new FailureError(`${where}: --items-path ${itemsPath} is not an array in the response.`);
  const fields = isPlainObject(body) ? Object.keys(body).slice(0, 12) : [];
  const shown = fields.length > 0 ? ` (top-level fields: ${fields.map((f) => escapeOneLine(f, 40)).join(', ')})` : '';
  return new FailureError(
    `${where}: cannot find the list of items in the response${shown}.`,
    'say where it is with --items-path <dot.path>.',
  );
}

/**
 * The same error (same class, same exit code) with a hint naming where to pick up again.
 */
function withResumeHint(err: unknown, at: NextPage): unknown {
  if ((at.cursor ?? at.url) === undefined || !(err instanceof CliError)) return err;
  const line = resumeLine(at);
  const copy = Object.create(Object.getPrototypeOf(err) as object) as CliError;
  Object.assign(copy, err, { message: err.message, stack: err.stack, hint: err.hint ? `${err.hint}\n${line}` : line });
  return copy;
}

/** "resume with: --cursor C [--cursor-param P]": where a stopped walk picks up again. */
function resumeLine(at: NextPage): string {
  return `resume with: --cursor ${shellQuote((at.cursor ?? at.url)!)}${at.param ? ` --cursor-param ${shellQuote(at.param)}` : ''}`;
}

/** A cursor as it can be pasted back into a shell; control characters from the server escaped. */
export function shellQuote(value: string): string {
  const safe = escapeOneLine(value, 4096);
  return /^[A-Za-z0-9_\-.:/=+%@,]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}
