// The paging engine every list command uses (octokit's habit): an async iterator of items that
// follows next pages itself, so commands never see cursors. Only the current page is held in memory.
// No undici here: this module talks to the HttpClient interface.
import { CliError, FailureError, InterruptedError } from '../errors';
import type { HttpClient, HttpResponse } from './types';
import { findItems, findNext, isPageUrl, offsetOnly, topLevelFields, type NextPage } from './discovery';
import { escapeOneLine, requestName } from './failures';
import { assertSameOrigin, joinUrl, mergeQuery, resolvePageUrl, showUrl, withQuery } from './url';
import { stringifyJson } from '../json';

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
  signal?: AbortSignal;
  onPage?(info: PageInfo): void;
  /** A line for stderr that is not an error: the list may be longer than what paging could follow. */
  onNote?(line: string): void;
}

/**
 * The body says there is more, but no next page is found in it. The items so far have been
 * handed out; a list writer ends its output whole (json included) before reporting this.
 */
export class PagingStoppedError extends FailureError {}

export interface Page {
  body: unknown;
  response: HttpResponse;
  items: unknown[];
  next?: NextPage;
  /** The has-more flag, when the body has one that says true ("has_more: true"). */
  more?: string;
}

const MAX_DEFAULT_PAGE = 100;

/** One page: the first (or the one at opts.cursor), with its items and where the next one is. */
export async function fetchOnePage(client: HttpClient, opts: PaginateOptions): Promise<Page> {
  return fetchPage(client, opts, startAt(opts.cursor, opts.cursorParam));
}

/** Every item, one at a time, following next pages (see paginatePages). */
export async function* paginate(client: HttpClient, opts: PaginateOptions): AsyncGenerator<unknown, void> {
  for await (const items of paginatePages(client, opts)) yield* items;
}

/**
 * The items page by page, as each page arrives (the last one cut to `limit`): what a list writer
 * prints with one write per page rather than one per item.
 */
export async function* paginatePages(client: HttpClient, opts: PaginateOptions): AsyncGenerator<unknown[], void> {
  const limit = opts.limit;
  if (limit !== undefined && limit <= 0) return;
  let at = startAt(opts.cursor, opts.cursorParam);
  // Every cursor/URL followed so far, to stop a server that sends one twice (a cycle of any length).
  // A few dozen bytes per page: the only state that grows with the length of the list.
  const seen = new Set<string>();
  if (opts.cursor) seen.add(pageKey(client, at));
  // And every page: a cursor never seen can still lead back to a page already printed (the first
  // page, fetched without a cursor, has none to remember). A few bytes per page.
  const bodies = new Set<string>();
  // The items alone, for pages asked with a parameter a convention named (not `cursor`, not
  // --cursor-param): a server that does not read that parameter answers with page 1 again, maybe
  // with a fresh token of another length, so the items are what must not come back.
  const itemSets = new Set<string>();
  let pages = 0;
  let yielded = 0;
  for (;;) {
    let page: Page;
    try {
      if (opts.signal?.aborted) throw new InterruptedError();
      page = await fetchPage(client, opts, at);
    } catch (err) {
      // Part-way only: a failure on the run's first page has nothing new to resume from.
      throw pages > 0 ? withResumeHint(err, at) : err;
    }
    const { body, items } = pageFingerprint(page);
    const guessed = at.cursor !== undefined && at.param !== undefined && opts.cursorParam === undefined;
    if (bodies.has(body) || (guessed && itemSets.has(items))) throw repeatedPage(page, at, guessed);
    bodies.add(body);
    itemSets.add(items);
    pages++;
    const remaining = limit === undefined ? page.items.length : limit - yielded;
    const take = page.items.length <= remaining ? page.items : page.items.slice(0, remaining);
    const next = page.next;
    opts.onPage?.({ pages, items: yielded + take.length, nextCursor: next?.cursor ?? next?.url });
    if (take.length > 0) yield take;
    yielded += take.length;
    if ((limit !== undefined && yielded >= limit) || page.items.length === 0) return;
    if (!next) {
      if (page.more) throw stopped(page, yielded);
      const counted = pages === 1 && !opts.cursor ? offsetOnly(page.body, yielded) : undefined;
      if (counted) opts.onNote?.(offsetNote(page, counted, yielded));
      return;
    }
    if (next.url !== undefined) {
      const target = resolvePageUrl(next.url, client.baseUrl);
      assertSameOrigin(target, client.baseUrl, `${requestName('GET', page.response.url)}: the next page link ${showUrl(target)}`);
    }
    const key = pageKey(client, next);
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

/**
 * What tells a page from every other: its length in bytes, its number of items, and its first and
 * last items, hashed. Two pages of one listing agree on all of these only when they are the same page.
 * (Not a hash of the whole body: at the speed of JavaScript that is a third of a long listing's time.)
 */
function pageFingerprint(page: Page): { body: string; items: string } {
  const { items } = page;
  const ends = items.length === 0 ? '' : `${stringifyJson(items[0])}\n${stringifyJson(items[items.length - 1])}`;
  let a = 0x811c9dc5;
  let b = 0x01000193;
  for (let i = 0; i < ends.length; i++) {
    a = Math.imul(a ^ ends.charCodeAt(i), 0x01000193);
    b = Math.imul(b ^ ends.charCodeAt(i), 0x5bd1e995);
  }
  const itemsKey = `${items.length}:${(a >>> 0).toString(36)}:${(b >>> 0).toString(36)}`;
  return { body: `${page.response.body.length}:${itemsKey}`, items: itemsKey };
}

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
  if (isPageUrl(cursor)) return { url: cursor };
  return param === undefined || param === 'cursor' ? { cursor } : { cursor, param };
}

function pageKey(client: HttpClient, at: NextPage): string {
  return at.url !== undefined ? `url ${resolvePageUrl(at.url, client.baseUrl).href}` : `${at.param ?? 'cursor'} ${at.cursor}`;
}

async function fetchPage(client: HttpClient, opts: PaginateOptions, at: NextPage): Promise<Page> {
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
  const body = response.json();
  const items = findItems(body, opts.itemsPath);
  if (!items) throw itemsNotFound(response, body, opts.itemsPath);
  const { next, more } = findNext(body, response.headers.link, { ...opts, items });
  // A body's "?after=…" is a query for the current request: its other parameters (a filter, the page
  // size) still apply. Other relative targets ("page2", a Link's "?page=2") are resolved as URLs are.
  if (next?.url?.startsWith('?') && !response.headers.link) next.url = mergeQuery(response.url, next.url).href;
  else if (next?.url !== undefined && !/^https?:\/\/|^\//i.test(next.url))
    next.url = resolvePageUrl(next.url, client.baseUrl, response.url).href;
  return { body, response, items, next, more };
}

/** The query of the listing's first page: the command's parameters and the page size. */
function firstQuery(opts: PaginateOptions): Record<string, string | undefined> {
  const query: Record<string, string | undefined> = { ...opts.query };
  const size = opts.pageSize ?? (opts.limit !== undefined ? Math.min(opts.limit, MAX_DEFAULT_PAGE) : undefined);
  if (size !== undefined) query.limit = String(size);
  return query;
}

/** Has-more with no next page: one line naming what was found and the overrides to try. */
function stopped(page: Page, received: number): PagingStoppedError {
  return new PagingStoppedError(
    `${requestName('GET', page.response.url)}: the response says there is more (${escapeOneLine(page.more ?? '', 80)}) but names no next page; ` +
      `stopped after ${received} item${received === 1 ? '' : 's'}. Say where the next cursor is with --cursor-path <path>, ` +
      'or page by the last item with --cursor-from-last <field> (and --cursor-param <name>).',
  );
}

function offsetNote(page: Page, counted: string, received: number): string {
  return (
    `note: ${requestName('GET', page.response.url)}: stopped after page 1 (${received} item${received === 1 ? '' : 's'}) although the response ` +
    `counts more (${escapeOneLine(counted, 80)}): it names no next cursor or link, and page or offset numbers are not followed.`
  );
}

function itemsNotFound(response: HttpResponse, body: unknown, itemsPath: string | undefined): FailureError {
  const where = requestName('GET', response.url);
  if (itemsPath) return new FailureError(`${where}: --items-path ${itemsPath} is not an array in the response.`);
  const fields = topLevelFields(body);
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
  const resume = at.cursor ?? at.url;
  if (resume === undefined || !(err instanceof CliError)) return err;
  const line = `resume with: --cursor ${shellQuote(resume)}${at.param ? ` --cursor-param ${shellQuote(at.param)}` : ''}`;
  const copy = Object.create(Object.getPrototypeOf(err) as object) as CliError;
  Object.assign(copy, err, { message: err.message, stack: err.stack, hint: err.hint ? `${err.hint}\n${line}` : line });
  return copy;
}

/** A cursor as it can be pasted back into a shell; control characters from the server escaped. */
export function shellQuote(value: string): string {
  const safe = escapeOneLine(value, 4096);
  return /^[A-Za-z0-9_\-.:/=+%@,]+$/.test(safe) ? safe : `'${safe.replace(/'/g, `'\\''`)}'`;
}
