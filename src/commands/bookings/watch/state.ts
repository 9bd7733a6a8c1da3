// What `bookings watch` remembers between polls, and how one poll's items become events. Memory is
// one entry per booking in the list, whatever the number of polls: a digest of the item (an
// unchanged booking costs one hash and one comparison) and its leaf values (`status`,
// `attendee.name`) as compact JSON, so that a change can say old → new. A leaf longer than
// MAX_KEPT characters is kept as a digest and its first characters only.
import { createHash } from 'node:crypto';
import { parseJson, scalarText, stringifyJson } from '../../../output/json';
import { flatten, getPath, parsePath, project, type Path } from '../../../output/paths';

/** Leaves up to this many characters of JSON are kept whole (every field of a usual booking). */
const MAX_KEPT = 256;
/** What is kept of a longer one: its start, shown as `start…` when it changes. */
const HEAD_KEPT = 48;

export type WatchEvent =
  | { type: 'listed' | 'added'; uid: string; booking: unknown; at: string }
  | { type: 'changed'; uid: string; changes: Record<string, [unknown, unknown]>; at: string }
  | { type: 'removed'; uid: string; last: Record<string, unknown>; at: string };

interface Entry {
  digest: string;
  /** Leaf path → compact JSON text of its value (or `#digest:head` for a long one). */
  leaves: Map<string, string>;
  /** The poll that last saw this booking. */
  seen: number;
}

const UID_PATHS = ['uid', 'booking_uid', 'id', 'booking_id'].map(parsePath);

/** The booking's identity: its uid (or id); an item with neither is known by its content. */
function uidOf(item: unknown, digest: string): string {
  for (const path of UID_PATHS) {
    const v = getPath(item, path);
    if (v !== undefined && v !== null && v !== '' && typeof v !== 'object') return scalarText(v);
  }
  return `#${digest.slice(0, 12)}`;
}

function digestOf(text: string): string {
  return createHash('sha1').update(text).digest('base64');
}

function compact(value: unknown): string {
  const text = stringifyJson(value);
  if (text.length <= MAX_KEPT) return text;
  const head = typeof value === 'string' ? value.slice(0, HEAD_KEPT) : text.slice(0, HEAD_KEPT);
  return `#${digestOf(text)}:${head}`;
}

/** A kept leaf back as a value: the value itself, or for a long one the text of its start and "…". */
function restore(kept: string | undefined): unknown {
  if (kept === undefined) return null;
  if (!kept.startsWith('#')) return parseJson(kept);
  return `${kept.slice(kept.indexOf(':') + 1)}…`;
}

export class WatchState {
  private readonly entries = new Map<string, Entry>();
  private poll = 0;

  private readonly paths: Path[] | undefined;

  /** `fields` (--fields): only those paths are watched and kept; otherwise every leaf of the item. */
  constructor(private readonly fields: string[] | undefined) {
    this.paths = fields?.map(parsePath);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Starts a poll; `see` then takes its items, `sweep` ends it. */
  begin(): void {
    this.poll++;
  }

  private leavesOf(item: unknown): [string, unknown][] {
    if (!this.fields) return flatten(item);
    return this.fields.flatMap((f) => flatten(getPath(item, parsePath(f)), f));
  }

  /** One item of the current poll: an event when it is new or has changed since the last poll. */
  see(item: unknown, at: string, first: boolean): WatchEvent | undefined {
    // The watched part of the item, hashed: an unchanged booking costs no more than this.
    const digest = digestOf(stringifyJson(this.paths ? project(item, this.paths) : item));
    const uid = uidOf(item, digest);
    const before = this.entries.get(uid);
    if (before?.seen === this.poll) return undefined; // twice in one walk (the list shifted under paging)
    if (before && before.digest === digest) {
      before.seen = this.poll;
      return undefined;
    }
    const leaves = this.leavesOf(item);
    const kept = new Map(leaves.map(([path, value]) => [path, compact(value)]));
    this.entries.set(uid, { digest, leaves: kept, seen: this.poll });
    if (!before) return { type: first ? 'listed' : 'added', uid, booking: item, at };
    const changes: Record<string, [unknown, unknown]> = {};
    for (const [path, value] of leaves) {
      const old = before.leaves.get(path);
      if (old !== kept.get(path)) changes[path] = [restore(old), value ?? null];
    }
    for (const [path, old] of before.leaves) if (!kept.has(path)) changes[path] = [restore(old), null];
    // A new digest with the same leaves (its keys reordered): nothing a reader would call a change.
    if (Object.keys(changes).length === 0) return undefined;
    return { type: 'changed', uid, changes, at };
  }

  /** Ends a complete poll: the bookings it did not see have left the list. */
  sweep(at: string): WatchEvent[] {
    const gone: WatchEvent[] = [];
    for (const [uid, entry] of this.entries) {
      if (entry.seen === this.poll) continue;
      this.entries.delete(uid);
      const last: Record<string, unknown> = {};
      for (const key of ['title', 'status']) if (entry.leaves.has(key)) last[key] = restore(entry.leaves.get(key));
      gone.push({ type: 'removed', uid, last, at });
    }
    return gone;
  }
}
