// Where the next page of a list is: the Link header, then the body's live signals in the rule table's
// order (./paging-rules), or the user's override (--cursor-path, --cursor-from-last, --cursor-param).
// discover() (./discovery) calls findNext once per page.
import { isLosslessNumber } from '../output/json';
import { isPlainObject } from '../base/plain-object';
import { valueAt } from './exact-path';
import { escapeOneLine } from './failures';
import { isPageUrl } from './url';
import { LINK_ARRAYS, MORE_FLAGS, NEXT_FIELDS, NEXT_OBJECT_KEYS, STRIPE_LIST } from './paging-rules';

export interface NextPage {
  /** Sent as ?<param>= on the original request. */
  cursor?: string;
  /** The query parameter for `cursor`; undefined: `cursor`. */
  param?: string;
  /** Fetched as given (same origin only); a "?query" is merged into the current request's. */
  url?: string;
}

/** What the user said of where the next page is (flags that override the rules). */
export interface NextOverrides {
  cursorPath?: string;
  /** --cursor-param: overrides every rule's parameter. */
  cursorParam?: string;
  /** --cursor-from-last: the next cursor is this field of the page's last item. */
  cursorFromLast?: string;
}

export type JsonObject = Record<string, unknown>;

/** An object of the body where paging fields are looked for. */
export interface Scope {
  o: JsonObject;
  /** "" for the body, "meta." for a container: names a field in messages. */
  at: string;
}

/** Where the next page is, whether the body says one follows, and (for --debug) where that came from. */
export interface NextFacts {
  next?: NextPage;
  /** The flag that says another page follows ("meta.has_more: true"), when one does. */
  more?: string;
  /**
   * For --debug: where `next` came from and, when another live signal names a different page, which
   * (not followed); or the end flag that overruled a cursor beside it.
   */
  debug?: string;
}

/** The target of a `Link: <…>; rel="next"` header, as written (maybe relative). */
function linkNext(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const link = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,"]*))?)*)/g;
  for (const m of header.matchAll(link)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    // Sentry keeps a rel="next" on the last page, marked results="false".
    const empty = /;\s*results\s*=\s*"?false"?/i.test(m[2] ?? '');
    if (rels.includes('next') && !empty && m[1]!.trim() !== '') return m[1]!.trim();
  }
  return undefined;
}

/** One live paging signal: the page it names, and where it was found ("links.next"). */
interface Signal {
  next: NextPage;
  from: string;
}

/**
 * Where the next page is, and whether the body says there is one (contract, third round: "Lists that
 * never lie"). The live signal the rules rank first is followed, whatever empty field stands beside it;
 * a flag that says the list ended overrules a cursor in the body (Relay keeps `endCursor` on its last
 * page), though not a Link header, which ranks above the body.
 */
export function findNext(
  body: unknown,
  objects: Scope[],
  linkHeader: string | undefined,
  opts: NextOverrides,
  items: unknown[],
): NextFacts {
  let more: string | undefined;
  let end: string | undefined;
  for (const { flag, more: meansMore } of MORE_FLAGS) {
    for (const { o, at } of objects) {
      if (typeof o[flag] !== 'boolean') continue;
      if (o[flag] === meansMore) more ??= `${at}${flag}: ${String(o[flag])}`;
      else end ??= `${at}${flag}: ${String(o[flag])}`;
    }
  }
  const link = linkNext(linkHeader);
  const signals = bodySignals(body, objects, opts, items);
  const first: Signal | undefined = link ? { next: { url: link }, from: 'the Link header' } : signals.next().value;
  if (end !== undefined && !link) {
    // An end flag ends the list, whatever cursor is left beside it.
    return first ? { debug: `${end} ends the list; ${describe(first)} beside it is not followed` } : {};
  }
  if (!first) return { more };
  for (const other of signals) {
    if (!samePage(first.next, other.next))
      return { next: first.next, more, debug: `next page from ${describe(first)}; ${describe(other)} names another, not followed` };
  }
  return { next: first.next, more };
}

/** The body's live next-page signals, in the rules' order (a generator: the first is usually enough). */
function* bodySignals(body: unknown, objects: Scope[], opts: NextOverrides, items: unknown[]): Generator<Signal, undefined> {
  const param = opts.cursorParam;
  if (opts.cursorPath) {
    const next = nextFrom(valueAt(body, opts.cursorPath), param);
    if (next) yield { next, from: `--cursor-path ${opts.cursorPath}` };
    return;
  }
  if (opts.cursorFromLast) {
    const next = fromLast(items, opts.cursorFromLast, param ?? 'cursor');
    if (next) yield { next, from: `--cursor-from-last ${opts.cursorFromLast}` };
    return;
  }
  for (const { o, at } of objects) {
    for (const key of LINK_ARRAYS) {
      const url = Array.isArray(o[key]) ? relNext(o[key] as unknown[]) : undefined;
      if (url) yield { next: { url }, from: `${at}${key}[rel=next]` };
    }
  }
  for (const row of NEXT_FIELDS) {
    for (const { o, at } of objects) {
      if (!Object.hasOwn(o, row.field) || (row.beside && !hasBeside(o, row.beside))) continue;
      if (row.position && NEXT_NAMED.some((k) => Object.hasOwn(o, k))) continue;
      const value = o[row.field];
      if (row.noNumber && (typeof value === 'number' || isLosslessNumber(value))) continue;
      const next = nextFrom(value, param ?? row.param);
      if (next) yield { next, from: `${at}${row.field}` };
    }
  }
  if (isPlainObject(body) && body.object === STRIPE_LIST.object && body[STRIPE_LIST.flag] === true) {
    const next = fromLast(items, STRIPE_LIST.field, param ?? STRIPE_LIST.param);
    if (next) yield { next, from: `the last item's ${STRIPE_LIST.field} (Stripe list)` };
  }
  return undefined;
}

/** Fields named for the next page: beside one of them, a position field (`cursor`) is not a next page. */
const NEXT_NAMED = [...new Set(NEXT_FIELDS.filter((r) => !r.position && r.field !== 'offset').map((r) => r.field))];

function describe(s: Signal): string {
  const value = s.next.cursor ?? s.next.url ?? '';
  return `${s.from} (${escapeOneLine(value, 120)})`;
}

/** Two signals name the same page: equal, or a URL whose query carries the other's token. */
function samePage(a: NextPage, b: NextPage): boolean {
  const va = a.cursor ?? a.url;
  const vb = b.cursor ?? b.url;
  if (va === vb) return true;
  const carries = (url: string | undefined, token: string | undefined) => {
    if (url === undefined || token === undefined) return false;
    const query = url.indexOf('?');
    if (query < 0) return false;
    for (const v of new URLSearchParams(url.slice(query + 1)).values()) if (v === token) return true;
    return false;
  };
  return carries(a.url, b.cursor) || carries(b.url, a.cursor);
}

/** The signature a rule asks for beside its field: the key, with that value when one is given. */
function hasBeside(o: JsonObject, beside: { key: string; value?: string }): boolean {
  return Object.hasOwn(o, beside.key) && (beside.value === undefined || o[beside.key] === beside.value);
}

/** The next page a value names; undefined when it names none (empty, or not a usable value). */
function nextFrom(value: unknown, param: string | undefined): NextPage | undefined {
  if (value === null || value === false || value === '') return undefined;
  if (typeof value === 'string') return isPageUrl(value) ? { url: value } : withParam(value, param);
  if (typeof value === 'number' || isLosslessNumber(value)) return withParam(String(value), param);
  if (!isPlainObject(value)) return undefined;
  for (const { key, token } of NEXT_OBJECT_KEYS) {
    if (!Object.hasOwn(value, key)) continue;
    const next = nextFrom(value[key], token ? (param ?? key) : param);
    if (next) return next;
  }
  return undefined;
}

function withParam(cursor: string, param: string | undefined): NextPage {
  return param === undefined || param === 'cursor' ? { cursor } : { cursor, param };
}

function relNext(links: unknown[]): string | undefined {
  for (const l of links) {
    if (!isPlainObject(l) || typeof l.href !== 'string' || l.href === '') continue;
    const rel = Array.isArray(l.rel) ? l.rel : [l.rel];
    if (rel.some((r) => typeof r === 'string' && r.toLowerCase() === 'next')) return l.href;
  }
  return undefined;
}

function fromLast(items: unknown[], field: string, param: string): NextPage | undefined {
  if (items.length === 0) return undefined;
  const value = valueAt(items[items.length - 1], field);
  if (typeof value === 'string' && value !== '') return withParam(value, param);
  if (typeof value === 'number' || isLosslessNumber(value)) return withParam(String(value), param);
  return undefined;
}
