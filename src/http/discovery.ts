// Finding the items and the next page in a list response whose shape the API spec never states
// (contract, "Paging"). Pure functions over the parsed body and the Link header; the user can
// override both with --items-path / --cursor-path.
import { isLosslessNumber } from '../json';

type JsonObject = Record<string, unknown>;

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !isLosslessNumber(v);
}

/** A dot path ("data.items", "meta.0.next") into a parsed body; undefined when any step is missing. */
export function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const step of path.split('.')) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (isObject(current) && Object.hasOwn(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}

const ITEM_KEYS = ['data', 'bookings', 'event_types', 'eventTypes', 'items', 'results', 'entries', 'collection', 'records'];

/** The page's items, or undefined when none of the rules finds an array. */
export function findItems(body: unknown, itemsPath?: string): unknown[] | undefined {
  if (Array.isArray(body)) return body;
  if (itemsPath) {
    const value = valueAt(body, itemsPath);
    return Array.isArray(value) ? value : undefined;
  }
  if (!isObject(body)) return undefined;
  const data = body.data;
  for (const scope of isObject(data) ? [body, data] : [body]) {
    for (const key of ITEM_KEYS) if (Array.isArray(scope[key])) return scope[key] as unknown[];
  }
  const arrays = Object.values(body).filter(Array.isArray);
  return arrays.length === 1 ? arrays[0] : undefined;
}

const CONTAINERS = ['meta', 'metadata', 'pagination', 'paging', 'page_info', 'pageInfo', 'links', 'data'];
// Most specific first, so that a `cursor` echoing the current page never wins over a `next_cursor`.
const CURSOR_FIELDS = [
  'next_cursor', 'nextCursor', 'next_page_cursor', 'next_page_token', 'nextPageToken', 'next', 'after',
  'end_cursor', 'endCursor', 'cursor',
];
const MORE_FLAGS = ['has_more', 'hasMore', 'has_next_page', 'hasNextPage'];

/** The body, then its containers, then containers inside those (data.pagination, meta.paging…). */
function pagingObjects(body: unknown): JsonObject[] {
  if (!isObject(body)) return [];
  const level1 = CONTAINERS.map((k) => body[k]).filter(isObject);
  const level2 = level1.flatMap((c) => CONTAINERS.map((k) => c[k]).filter(isObject));
  return [body, ...level1, ...level2];
}

/** undefined: not a usable value, keep looking; null: present but empty, the list ends. */
function cursorText(value: unknown): string | null | undefined {
  if (value === null || value === false || value === '') return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || isLosslessNumber(value)) return String(value);
  if (isObject(value) && typeof value.href === 'string') return value.href || null;
  return undefined;
}

/** The target of a `Link: <…>; rel="next"` header, as written (maybe relative). */
export function linkNext(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const link = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,"]*))?)*)/g;
  for (const m of header.matchAll(link)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^;,\s]+))/i.exec(m[2] ?? '');
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/);
    if (rels.includes('next') && m[1]!.trim() !== '') return m[1]!.trim();
  }
  return undefined;
}

/** True when a page URL rather than a cursor: an http(s) URL or a path starting with "/". */
export function isPageUrl(value: string): boolean {
  return /^https?:\/\//i.test(value) || value.startsWith('/');
}

export interface NextPage {
  /** Sent as ?cursor= on the original request. */
  cursor?: string;
  /** Fetched as given (same origin only). */
  url?: string;
}

/** Where the next page is, or undefined when the list ends (rules in the contract, in order). */
export function findNext(body: unknown, linkHeader: string | undefined, cursorPath?: string): NextPage | undefined {
  // Rule 1, the Link header, before anything in the body (a has_more flag included).
  const link = linkNext(linkHeader);
  if (link) return { url: link };
  const objects = pagingObjects(body);
  if (objects.some((o) => MORE_FLAGS.some((f) => o[f] === false))) return undefined;
  let value: string | null | undefined;
  if (cursorPath) value = cursorText(valueAt(body, cursorPath));
  else value = firstCursor(objects);
  if (!value) return undefined;
  return isPageUrl(value) ? { url: value } : { cursor: value };
}

function firstCursor(objects: JsonObject[]): string | null | undefined {
  for (const field of CURSOR_FIELDS) {
    for (const o of objects) {
      if (!Object.hasOwn(o, field)) continue;
      const value = cursorText(o[field]);
      if (value !== undefined) return value;
    }
  }
  return undefined;
}

/** Top-level field names, for the message when no items are found. */
export function topLevelFields(body: unknown): string[] {
  return isObject(body) ? Object.keys(body).slice(0, 12) : [];
}
