// Finding the items and the next page in a list response whose shape the API spec never states
// (contract, "Paging" and "Paging, widened"). One function, discover(), over the parsed body and the
// Link header, driven by the rule table in ./paging-rules (the data); the user can override with
// --items-path / --cursor-path. It also reads, when no next page is named, the counts the end-of-walk
// decision weighs (walk-end.ts).
import { isLosslessNumber } from '../output/json';
import { isPlainObject } from '../base/plain-object';
import { valueAt } from './exact-path';
import { findNext, type JsonObject, type NextFacts, type NextOverrides, type NextPage, type Scope } from './next-page';
import type { Count, Counts } from './walk-end';
import { CONTAINERS, ITEM_FIELDS, LINK_ARRAYS, OFFSET_FIELDS, PAGE_COUNT_FIELDS, PAGE_NUMBER_FIELDS, TOTAL_FIELDS } from './paging-rules';

export type { NextPage };

/** What the user said of the shape (flags that override the rules). */
export interface DiscoverOptions extends NextOverrides {
  itemsPath?: string;
}

/** What one list response says of itself. */
export interface PageFacts extends NextFacts {
  /** The page's items; undefined when none of the rules finds an array (then nothing else is looked for). */
  items?: unknown[];
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

/** The body, then its containers, then containers inside those (data.pagination, links.pages…). */
function pagingObjects(body: unknown): Scope[] {
  if (!isPlainObject(body)) return [];
  const inside = (s: Scope) =>
    CONTAINERS.filter((k) => isPlainObject(s.o[k])).map((k) => ({ o: s.o[k] as JsonObject, at: `${s.at}${k}.` }));
  const level1 = inside({ o: body, at: '' });
  return [{ o: body, at: '' }, ...level1, ...level1.flatMap(inside)];
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
