// Dot paths into data of unknown shape: `attendee.name`, `attendees.0.email` (or `attendees[0].email`),
// and `attendees.name` for the names of all attendees. A key that is not there exactly is also looked
// up loosely (case, `_` and `-` ignored), so `startTime` finds `start_time`.
import { isPlainObject, setOwn } from '../base/plain-object';
import { keysInOrder } from './key-order';

export type Path = string[];

export function parsePath(path: string): Path {
  if (path === '') return [];
  return path
    .replace(/\[(\d+)\]/g, '.$1')
    .split('.')
    .filter((s) => s !== '');
}

function loose(key: string): string {
  return key.toLowerCase().replace(/[_-]/g, '');
}

/** Objects this many keys wide get an index of their loose keys, made once (LOOSE_INDEXES). */
const LOOSE_INDEX_FROM = 64;
/**
 * A wide object's keys by their loose form, the first key of each form. A lookup that misses (the
 * preferred columns' aliases, tried for every item) scanned every key: an item of 80,000 fields
 * took seconds. Parsed data is read only, so an index stays true.
 */
const LOOSE_INDEXES = new WeakMap<object, Map<string, string>>();

/** The key of `obj` that `segment` names: exactly, else loosely; undefined when none. */
function findKey(obj: Record<string, unknown>, segment: string): string | undefined {
  if (Object.hasOwn(obj, segment)) return segment;
  const wanted = loose(segment);
  // The index first: Object.keys of a wide object is itself slow (a second for a million keys).
  const indexed = LOOSE_INDEXES.get(obj);
  if (indexed) return indexed.get(wanted);
  const keys = keysInOrder(obj) ?? Object.keys(obj);
  if (keys.length < LOOSE_INDEX_FROM) return keys.find((k) => loose(k) === wanted);
  const index = new Map<string, string>();
  for (const k of keys) if (!index.has(loose(k))) index.set(loose(k), k);
  LOOSE_INDEXES.set(obj, index);
  return index.get(wanted);
}

const INDEX = /^\d+$/;

/** The value at `path`; an array met by a name segment is mapped over. undefined when absent. */
export function getPath(value: unknown, path: Path, from = 0): unknown {
  if (from === path.length) return value;
  const segment = path[from]!;
  if (Array.isArray(value)) {
    if (INDEX.test(segment)) return getPath(value[Number(segment)], path, from + 1);
    const mapped = value.map((v) => getPath(v, path, from)).filter((v) => v !== undefined);
    return mapped.length > 0 ? mapped : undefined;
  }
  if (!isPlainObject(value)) return undefined;
  const key = findKey(value, segment);
  return key === undefined ? undefined : getPath(value[key], path, from + 1);
}

function emptyLike(value: unknown): Record<string, unknown> | unknown[] {
  return Array.isArray(value) ? [] : {};
}

/** Copies the part of `src` at `path` into `out` (same nesting, source key spelling); absent: no-op. */
function projectInto(src: unknown, path: Path, from: number, out: Record<string, unknown> | unknown[]): void {
  const segment = path[from]!;
  const last = from === path.length - 1;
  let key: string | number | undefined;
  if (Array.isArray(src)) {
    if (!INDEX.test(segment)) {
      src.forEach((el, i) => {
        if (!isPlainObject(el) && !Array.isArray(el)) return;
        const slot = ((out as unknown[])[i] ??= emptyLike(el)) as Record<string, unknown> | unknown[];
        projectInto(el, path, from, slot);
      });
      return;
    }
    key = Number(segment);
    if (key >= src.length) return;
  } else if (isPlainObject(src)) {
    key = findKey(src, segment);
    if (key === undefined) return;
  } else {
    return;
  }
  const child = (src as Record<string | number, unknown>)[key];
  const target = out as Record<string | number, unknown>;
  if (last || (!isPlainObject(child) && !Array.isArray(child))) {
    if (last) setOwn(target, key, child);
    return;
  }
  if (!Object.hasOwn(target, key)) setOwn(target, key, emptyLike(child));
  projectInto(child, path, from + 1, target[key] as Record<string, unknown> | unknown[]);
}

/** `value` cut down to the given paths, nested as in the source, in the order of `paths`. */
export function project(value: unknown, paths: Path[]): unknown {
  if (!isPlainObject(value) && !Array.isArray(value)) return value;
  const out = emptyLike(value);
  for (const path of paths) {
    if (path.length > 0) projectInto(value, path, 0, out);
  }
  // Holes left by picking e.g. only attendees.1 print as null rather than vanish.
  return fillHoles(out);
}

function fillHoles(value: unknown): unknown {
  if (Array.isArray(value)) return Array.from(value, (v) => (v === undefined ? null : fillHoles(v)));
  if (isPlainObject(value)) for (const k of Object.keys(value)) value[k] = fillHoles(value[k]);
  return value;
}

/** Leaves of `value` as [dot path, value] pairs; empty objects and arrays are leaves themselves. */
export function flatten(value: unknown, prefix = '', out: [string, unknown][] = []): [string, unknown][] {
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : isPlainObject(value) ? Object.entries(value) : [];
  if (entries.length === 0) {
    out.push([prefix, value]);
    return out;
  }
  for (const [k, v] of entries) flatten(v, prefix === '' ? k : `${prefix}.${k}`, out);
  return out;
}
