// Finding the items and the next page in a list response whose shape the API spec never states
// (contract, "Paging" and "Paging, widened"). One function, discover(), over the parsed body and the
// Link header, driven by the rule table in ./paging-rules (the data); the user can override with
// --items-path / --cursor-path. It also reads, when no next page is named, the counts the end-of-walk
// decision weighs (walk-end.ts).
import { isLosslessNumber } from '../output/json';
import { UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';
import { escapeOneLine } from './failures';
import { isPageUrl } from './url';
import type { Count, Counts } from './walk-end';
import {
  CONTAINERS,
  ITEM_FIELDS,
  LINK_ARRAYS,
  MORE_FLAGS,
  NEXT_FIELDS,
  NEXT_OBJECT_KEYS,
  OFFSET_FIELDS,
  PAGE_COUNT_FIELDS,
  PAGE_NUMBER_FIELDS,
  STRIPE_LIST,
  TOTAL_FIELDS,
} from './paging-rules';

export interface NextPage {
  /** Sent as ?<param>= on the original request. */
  cursor?: string;
  /** The query parameter for `cursor`; undefined: `cursor`. */
  param?: string;
  /** Fetched as given (same origin only); a "?query" is merged into the current request's. */
  url?: string;
}

/** What the user said of the shape (flags that override the rules). */
export interface DiscoverOptions {
  itemsPath?: string;
  cursorPath?: string;
  /** --cursor-param: overrides every rule's parameter. */
  cursorParam?: string;
  /** --cursor-from-last: the next cursor is this field of the page's last item. */
  cursorFromLast?: string;
}

/** What one list response says of itself. */
export interface PageFacts {
  /** The page's items; undefined when none of the rules finds an array (then nothing else is looked for). */
  items?: unknown[];
  next?: NextPage;
  /** The flag that says another page follows ("meta.has_more: true"), when one does. */
  more?: string;
  /**
   * For --debug: where `next` came from and, when another live signal names a different page, which
   * (not followed); or the end flag that overruled a cursor beside it.
   */
  debug?: string;
  /** When no next page is named: the counts the body reports, for the end-of-walk decision. */
  counts?: Counts;
}

/** The items of a list response, where its next page is, and (when none is) the counts it reports. */
export function discover(body: unknown, linkHeader?: string, opts: DiscoverOptions = {}): PageFacts {
  const items = findItems(body, opts.itemsPath);
  if (!items) return {};
  const objects = pagingObjects(body);
  const found = findNext(body, objects, linkHeader, opts, items);
  return found.next ? { items, ...found } : { items, ...found, counts: countsIn(objects) };
}

type JsonObject = Record<string, unknown>;

const pathCache = new Map<string, string[]>();

/**
 * The steps of a path: dots between names, brackets for names with dots or for indexes:
 * `data.items`, `meta.0.next`, `["@odata.nextLink"]`, `links["next.page"]`, `items[0]`.
 */
function parsePath(path: string): string[] {
  const cached = pathCache.get(path);
  if (cached) return cached;
  const steps: string[] = [];
  const token = /\[\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(\d+))\s*\]|([^.[\]]+)/y;
  let at = 0;
  while (at < path.length) {
    token.lastIndex = at;
    const m = token.exec(path);
    if (!m)
      throw new UsageError(
        `cannot read the path ${JSON.stringify(path)} at character ${at + 1}: use dot.separated names, or ["a.b"] for a name with dots.`,
      );
    const quoted = m[1] ?? m[2];
    steps.push(quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (m[3] ?? m[4])!);
    at = token.lastIndex;
    if (path[at] === '.' && at + 1 < path.length && path[at + 1] !== '.') at++;
    else if (at < path.length && path[at] !== '[')
      throw new UsageError(
        `cannot read the path ${JSON.stringify(path)} at character ${at + 1}: use dot.separated names, or ["a.b"] for a name with dots.`,
      );
  }
  if (steps.length === 0) throw new UsageError('the path is empty.');
  pathCache.set(path, steps);
  return steps;
}

/** A path (see parsePath) into a parsed body; undefined when any step is missing. */
function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const step of parsePath(path)) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (isPlainObject(current) && Object.hasOwn(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}

/** The page's items, or undefined when none of the rules finds an array. */
function findItems(body: unknown, itemsPath?: string): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (itemsPath) {
    const value = valueAt(body, itemsPath);
    return Array.isArray(value) ? value : undefined;
  }
  if (!isPlainObject(body)) return undefined;
  const data = body.data;
  for (const scope of isPlainObject(data) ? [body, data] : [body]) {
    for (const key of ITEM_FIELDS) if (Array.isArray(scope[key])) return scope[key] as unknown[];
  }
  // The only array-valued field, at the top level or in HAL's `_embedded` (`{_embedded: {orders: […]}}`);
  // PayPal's `links: [{href, rel}]` beside the items is paging, not data.
  for (const scope of isPlainObject(body._embedded) ? [body, body._embedded] : [body]) {
    const arrays = Object.entries(scope)
      .filter(([k, v]) => Array.isArray(v) && !LINK_ARRAYS.includes(k))
      .map(([, v]) => v as unknown[]);
    if (arrays.length === 1) return arrays[0];
  }
  return undefined;
}

interface Scope {
  o: JsonObject;
  /** "" for the body, "meta." for a container: names a field in messages. */
  at: string;
}

/** The body, then its containers, then containers inside those (data.pagination, links.pages…). */
function pagingObjects(body: unknown): Scope[] {
  if (!isPlainObject(body)) return [];
  const inside = (s: Scope) =>
    CONTAINERS.filter((k) => isPlainObject(s.o[k])).map((k) => ({ o: s.o[k] as JsonObject, at: `${s.at}${k}.` }));
  const level1 = inside({ o: body, at: '' });
  return [{ o: body, at: '' }, ...level1, ...level1.flatMap(inside)];
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
function findNext(
  body: unknown,
  objects: Scope[],
  linkHeader: string | undefined,
  opts: DiscoverOptions,
  items: unknown[],
): Pick<PageFacts, 'next' | 'more' | 'debug'> {
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
function* bodySignals(body: unknown, objects: Scope[], opts: DiscoverOptions, items: unknown[]): Generator<Signal, undefined> {
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

/** The counts the paging objects report, each the first found. */
function countsIn(objects: Scope[]): Counts | undefined {
  if (objects.length === 0) return undefined;
  return {
    total: numberField(objects, TOTAL_FIELDS),
    pageCount: numberField(objects, PAGE_COUNT_FIELDS),
    pageNumber: numberField(objects, PAGE_NUMBER_FIELDS),
    offset: numberField(objects, OFFSET_FIELDS),
  };
}

/** A number field of the paging objects, first found: its value and "meta.total: 45" for messages. */
function numberField(objects: Scope[], fields: string[]): Count | undefined {
  for (const { o, at } of objects) {
    for (const f of fields) {
      const v = o[f];
      const n = typeof v === 'number' ? v : isLosslessNumber(v) ? Number(String(v)) : Number.NaN;
      if (Number.isFinite(n)) return { n, name: `${at}${f}: ${String(v)}` };
    }
  }
  return undefined;
}
