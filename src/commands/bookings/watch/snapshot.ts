// What `bookings watch` remembers of the list between polls (and in --state files): one entry per
// booking, never one per field. An entry is the booking's fingerprint (an unchanged booking costs
// one hash and one comparison) and its compact JSON, so that a change can be told field by field.
// Both are bounded: a booking whose JSON is over MAX_KEPT_BYTES is kept as its fingerprint and its
// summary (status, times, title) only, and the whole snapshot as at most `maxBytes` (--max-state,
// default 96 MiB): a list that never ends, or grows past it, stops the watch with an error naming
// the bound, instead of taking the machine's memory.
import { createHash } from 'node:crypto';
import { FailureError } from '../../../base/errors';
import { isPlainObject } from '../../../base/plain-object';
import { parseJson, scalarText, stringifyJson } from '../../../output/json';
import { flatten, getPath, parsePath, project, type Path } from '../../../output/paths';
import { formatBytes } from '../../../base/words';

/** A booking's JSON up to this size is kept whole: every field of a usual booking (~400 bytes). */
export const MAX_KEPT_BYTES = 16 * 1024;
/**
 * The default bound of the whole snapshot, in bytes of kept text plus ENTRY_COST per booking: about
 * 150,000 bookings of the sandbox's size, at a peak of about 200 MB (docs/performance.md).
 */
export const DEFAULT_MAX_STATE_BYTES = 96 * 1024 * 1024;
/** What an entry costs beyond its text (the map's slot, the object, the uid, the fingerprint): measured. */
const ENTRY_COST = 320;

export interface Entry {
  /** sha1 of the booking's watched JSON, base64. */
  fp: string;
  /** The booking's compact JSON; or, when `whole` is false, the JSON of its summary only. */
  text: string;
  whole: boolean;
  /** The poll that last saw it (0: loaded from a state file, not seen yet). */
  seen: number;
}

const UID_PATHS = ['uid', 'booking_uid', 'id', 'booking_id'].map(parsePath);
/** The fields a booking over MAX_KEPT_BYTES is still known by (and a removed booking is shown by). */
const SUMMARY_FIELDS = ['title', 'status', 'start', 'end', 'no_show'] as const;

/** The booking's identity: its uid (or id); an item with neither is known by its content. */
function uidOf(item: unknown, fp: string): string {
  for (const path of UID_PATHS) {
    const v = getPath(item, path);
    if (v !== undefined && v !== null && v !== '' && typeof v !== 'object') return scalarText(v);
  }
  return `#${fp.slice(0, 12)}`;
}

/**
 * The text in one piece of its own. stringifyJson may build it of pieces (a number kept exactly is
 * spliced in), each of which costs V8 a header and holds on to the string it was cut from: kept for
 * every booking, that was twice the text's size. A regular expression's test makes V8 flatten it.
 */
function flat(text: string): string {
  /^/.test(text);
  return text;
}

// The longest piece of a text hashed at once. Hashing a string copies it into UTF-8 first: a booking
// of tens of MiB hashed whole held that copy beside the text at the watch's peak (issue 33, item 2).
const HASH_SLICE = 64 * 1024;

/** sha1 of the text's UTF-8, in slices (never between the halves of a surrogate pair: same digest). */
function fingerprintOf(text: string): string {
  const hash = createHash('sha1');
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + HASH_SLICE);
    if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
    hash.update(from === 0 && to === text.length ? text : text.slice(from, to));
    from = to;
  }
  return hash.digest('base64');
}

/** One item of a poll, compared with what the snapshot holds; nothing is changed until commit(). */
export interface Sighting {
  uid: string;
  item: unknown;
  before?: Entry;
  /** What the snapshot would hold now; undefined when the booking is unchanged (and marked seen). */
  after?: Entry;
}

export class Snapshot {
  readonly entries = new Map<string, Entry>();
  /** Counts the changes taken in: a --state file is written again only when it moved. */
  version = 0;
  private bytes = 0;
  private poll = 0;
  private readonly paths: Path[] | undefined;

  /** `fields` (--fields): only those paths are watched and kept; otherwise the whole item. */
  constructor(
    fields: string[] | undefined,
    private readonly maxBytes: number = DEFAULT_MAX_STATE_BYTES,
  ) {
    this.paths = fields?.map(parsePath);
  }

  get size(): number {
    return this.entries.size;
  }

  /** Starts a poll; `see` then takes its items, `sweep` ends it. */
  begin(): void {
    this.poll++;
  }

  /**
   * One item of the current poll: what it was and is (commit() takes it in), `after` undefined when
   * it is unchanged; undefined when it was seen already in this walk (a list shifting under paging).
   */
  see(item: unknown): Sighting | undefined {
    const watched = this.paths ? project(item, this.paths) : item;
    const text = stringifyJson(watched);
    const fp = fingerprintOf(text);
    const uid = uidOf(item, fp);
    const before = this.entries.get(uid);
    if (before?.seen === this.poll) return undefined;
    if (before && before.fp === fp) {
      before.seen = this.poll;
      return { uid, item, before };
    }
    const whole = text.length <= MAX_KEPT_BYTES;
    const after: Entry = { fp, text: flat(whole ? text : stringifyJson(summaryOf(watched))), whole, seen: this.poll };
    return { uid, item, before, after };
  }

  /** Takes in what see() found; past the bound of the whole snapshot, a FailureError. */
  commit(s: Sighting & { after: Entry }): void {
    this.bytes += s.after.text.length + ENTRY_COST - (s.before ? s.before.text.length + ENTRY_COST : 0);
    this.entries.set(s.uid, s.after);
    this.version++;
    if (this.bytes > this.maxBytes) throw overBound(this.maxBytes, this.entries.size);
  }

  /** A booking of a page that did not change (a 304): seen, as it was. */
  seenAgain(uid: string): void {
    const e = this.entries.get(uid);
    if (e) e.seen = this.poll;
  }

  /** Bytes held beside the entries (the deliveries still owed: the Outbox, forward.ts), under the same bound. */
  charge(bytes: number): void {
    this.bytes += bytes;
    if (bytes > 0 && this.bytes > this.maxBytes) throw overBound(this.maxBytes, this.entries.size);
  }

  /** An entry from a state file, before the first poll. */
  load(uid: string, entry: Entry): void {
    this.commit({ uid, item: undefined, after: entry });
  }

  /** Ends a complete poll: the bookings it did not see have left the list (and the snapshot). */
  sweep(): [string, Entry][] {
    const gone: [string, Entry][] = [];
    for (const [uid, entry] of this.entries) {
      if (entry.seen === this.poll) continue;
      this.entries.delete(uid);
      this.version++;
      this.bytes -= entry.text.length + ENTRY_COST;
      gone.push([uid, entry]);
    }
    return gone;
  }
}

function overBound(maxBytes: number, count: number): FailureError {
  return new FailureError(
    `bookings watch: the list passed ${formatBytes(maxBytes)} of kept bookings (--max-state) at ${count.toLocaleString('en')} bookings; stopped.`,
    'narrow the list with --status, or raise --max-state if it really is that long.',
  );
}

/** The few fields a booking too large to keep whole is still compared by. */
function summaryOf(value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (!isPlainObject(value)) return out;
  for (const key of SUMMARY_FIELDS) {
    const v = value[key];
    if (v !== undefined && (v === null || typeof v !== 'object')) out[key] = v;
  }
  return out;
}

/** What an entry held, as a value (the booking, or its summary). */
export function entryValue(entry: Entry): Record<string, unknown> {
  const v = parseJson(entry.text);
  return isPlainObject(v) ? v : {};
}

/**
 * Field by field, what changed between an entry and the item now: `path: [old, new]`. Leaves are
 * compared only here, for a booking that changed, and only within MAX_KEPT_BYTES of it: a booking
 * kept by summary is compared by its summary, plus its fingerprint when nothing else differs.
 */
export function changesBetween(before: Entry, after: Entry): Record<string, [unknown, unknown]> {
  const old = new Map(flatten(entryValue(before)).map(([p, v]) => [p, v]));
  const now = flatten(entryValue(after));
  const changes: Record<string, [unknown, unknown]> = {};
  for (const [path, value] of now) {
    const was = old.get(path);
    if (stringifyJson(was ?? null) !== stringifyJson(value ?? null)) changes[path] = [was ?? null, value ?? null];
    old.delete(path);
  }
  for (const [path, was] of old) changes[path] = [was ?? null, null];
  if (Object.keys(changes).length === 0 && !(before.whole && after.whole)) changes['(fingerprint)'] = [before.fp, after.fp];
  return changes;
}
