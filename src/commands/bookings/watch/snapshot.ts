// What `bookings watch` remembers of the list between polls (and in --state files): one entry per
// booking, never one per field. An entry is the booking's fingerprint (an unchanged booking costs
// one hash and one comparison) and its compact JSON, so that a change can be told field by field.
// Both are bounded: a booking whose JSON is over MAX_KEPT_BYTES is kept as its fingerprint and its
// summary (status, times, title) only, and the whole snapshot as at most `maxBytes` (--max-state,
// default 72 MiB): a list that never ends, or grows past it, stops the watch with an error naming
// the bound, instead of taking the machine's memory.
import { createHash } from 'node:crypto';
import { FailureError } from '../../../base/errors';
import { isPlainObject, setOwn } from '../../../base/plain-object';
import { jsonSlices } from '../../../http/page-fingerprint';
import { isLosslessNumber, parseJson, scalarText, stringifyJson } from '../../../output/json';
import { flatten, getPath, parsePath, project, type Path } from '../../../output/paths';
import { formatBytes } from '../../../base/words';
import { KeptTexts, type Entry } from './kept-texts';

export type { Entry } from './kept-texts';

/** A booking's JSON up to this size is kept whole: every field of a usual booking (~400 bytes). */
export const MAX_KEPT_BYTES = 16 * 1024;
/**
 * The default bound of the whole snapshot, in bytes of kept records plus ENTRY_COST per booking:
 * about 133,000 bookings of the sandbox's size (504 bytes each). Chosen for issue 33's 200 MB: a list
 * that never ends stops at a peak of about 170 MB on node 24, 146 MB on node 20 (docs/performance.md).
 */
export const DEFAULT_MAX_STATE_BYTES = 72 * 1024 * 1024;
/**
 * What an entry costs beyond its record (kept-texts.ts), on V8's heap: its uid (~32 bytes), its slot in
 * the Map (~40, measured) and a known page's reference to it.
 */
const ENTRY_COST = 80;

const UID_PATHS = ['uid', 'booking_uid', 'id', 'booking_id'].map(parsePath);
/** The fields a booking over MAX_KEPT_BYTES is still known by (and a removed booking is shown by). */
const SUMMARY_FIELDS = ['title', 'status', 'start', 'end', 'no_show'] as const;

/** The booking's identity: its uid (or id); an item with neither is known by its content. */
function uidOf(item: unknown, fp: string): string {
  for (const path of UID_PATHS) {
    const v = getPath(item, path);
    // An id past 2^53 is parsed as a lossless number (an object holding its digits): an id all the same.
    if (v !== undefined && v !== null && v !== '' && (typeof v !== 'object' || isLosslessNumber(v))) return scalarText(v);
  }
  return `#${fp.slice(0, 12)}`;
}

// The longest piece of a text hashed at once. Hashing a string copies it into UTF-8 first: a booking
// of tens of MiB hashed whole held that copy beside the text at the watch's peak (issue 33, item 2).
const HASH_SLICE = 64 * 1024;
// A booking whose JSON is surely longer than this is never made one string: its text is hashed as it
// is written, in slices. Made whole, the 3-million-element booking of issue 33 (22 MB of JSON) cost
// 55 MB more at the watch's peak on node 24 (the string and JSON.stringify's pieces of it).
const WHOLE_TEXT_UP_TO = 1024 * 1024;

/** The booking's fingerprint, and its compact JSON unless that is over WHOLE_TEXT_UP_TO. */
function fingerprinted(value: unknown): { fp: string; text?: string } {
  const hash = createHash('sha1');
  if (longerThan(value, WHOLE_TEXT_UP_TO)) {
    let pending = '';
    jsonSlices(value, (slice) => {
      pending += slice;
      if (pending.length < HASH_SLICE) return;
      hash.update(pending);
      pending = '';
    });
    return { fp: hash.update(pending).digest('base64') };
  }
  // sha1 of the text's UTF-8, in slices (never between the halves of a surrogate pair: same digest).
  const text = stringifyJson(value);
  for (let from = 0; from < text.length; ) {
    let to = Math.min(text.length, from + HASH_SLICE);
    if (to < text.length && (text.charCodeAt(to - 1) & 0xfc00) === 0xd800) to++;
    hash.update(from === 0 && to === text.length ? text : text.slice(from, to));
    from = to;
  }
  return { fp: hash.digest('base64'), text };
}

/**
 * Whether the value's compact JSON is surely longer than `limit` characters: a lower bound of its
 * length (a string's characters and quotes, a comma or bracket per element…), counted until it passes.
 */
function longerThan(value: unknown, limit: number): boolean {
  let n = 0;
  const past = (v: unknown): boolean => {
    if (typeof v === 'string') n += v.length + 2;
    else if (v === null || typeof v !== 'object') n += 1;
    else if (isLosslessNumber(v)) n += v.value.length;
    else if (Array.isArray(v)) {
      n += 1 + v.length;
      for (const x of v) if (past(x)) return true;
    } else
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k];
        if (x === undefined || typeof x === 'function') continue;
        n += k.length + 3;
        if (past(x)) return true;
      }
    return n > limit;
  };
  return past(value);
}

/** One item of a poll, compared with what the snapshot holds; nothing is changed until commit(). */
export interface Sighting {
  uid: string;
  item: unknown;
  /** What the snapshot held, when the booking changed (undefined when it is new, or unchanged). */
  before?: Entry;
  /** What the snapshot would hold now; undefined when the booking is unchanged (and marked seen). */
  after?: Entry;
}

export class Snapshot {
  /** Each booking's uid and where its entry is in `texts`. */
  private readonly refs = new Map<string, number>();
  private readonly texts = new KeptTexts();
  /** Counts the changes taken in: a --state file is written again only when it moved. */
  version = 0;
  /** Bytes of the deliveries still owed (charge()). */
  private owed = 0;
  private poll = 0;
  private readonly paths: Path[] | undefined;
  /**
   * Bookings one complete walk missed that the service said it still had (poll.ts, confirm.ts): kept
   * once, and removed when the next walk misses them too. Saved with --state.
   */
  private readonly missedOnce = new Set<string>();

  /** `fields` (--fields): only those paths are watched and kept; otherwise the whole item. */
  constructor(
    fields: string[] | undefined,
    private readonly maxBytes: number = DEFAULT_MAX_STATE_BYTES,
  ) {
    this.paths = fields?.map(parsePath);
  }

  get size(): number {
    return this.refs.size;
  }

  /** Every entry, for --state: each made as it is reached. */
  get entries(): Iterable<[string, Entry]> {
    const { refs, texts } = this;
    return (function* () {
      for (const [uid, ref] of refs) yield [uid, texts.get(ref)] as [string, Entry];
    })();
  }

  get(uid: string): Entry | undefined {
    const ref = this.refs.get(uid);
    return ref === undefined ? undefined : this.texts.get(ref);
  }

  /** Bytes held for the entries (their chunks, holes included): for the tests of compaction. */
  get heldBytes(): number {
    return this.texts.held;
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
    const { fp, text } = fingerprinted(watched);
    const uid = uidOf(item, fp);
    const ref = this.refs.get(uid);
    const was = ref === undefined ? 'new' : this.texts.sight(ref, fp, this.poll);
    if (was === 'seen') return undefined;
    this.missedOnce.delete(uid);
    if (was === 'same') return { uid, item };
    const before = ref === undefined ? undefined : this.texts.get(ref);
    const whole = text !== undefined && text.length <= MAX_KEPT_BYTES;
    const after: Entry = { fp, text: whole ? text : stringifyJson(summaryOf(watched)), whole, seen: this.poll };
    return { uid, item, before, after };
  }

  /** Takes in what see() found; past the bound of the whole snapshot, a FailureError. */
  commit(s: Sighting & { after: Entry }): void {
    const was = this.refs.get(s.uid);
    if (was !== undefined) this.texts.free(was);
    this.refs.set(s.uid, this.texts.put(s.after));
    this.version++;
    this.check();
  }

  /** A booking of a page that did not change (a 304): seen, as it was. */
  seenAgain(uid: string): void {
    const ref = this.refs.get(uid);
    if (ref !== undefined) this.texts.setSeen(ref, this.poll);
    this.missedOnce.delete(uid);
  }

  /** The bookings the current walk has not seen (so far), and whether a walk before it missed each too. */
  unseen(): { uid: string; missedBefore: boolean }[] {
    const out: { uid: string; missedBefore: boolean }[] = [];
    for (const [uid, ref] of this.refs) if (this.texts.seen(ref) !== this.poll) out.push({ uid, missedBefore: this.missedOnce.has(uid) });
    return out;
  }

  /** The bookings kept once though a walk missed them (--state saves them). */
  get missed(): readonly string[] {
    return [...this.missedOnce];
  }

  /** A booking a walk missed and the service still has: kept this time (from a state file too). */
  markMissed(uid: string): void {
    if (!this.refs.has(uid) || this.missedOnce.has(uid)) return;
    this.missedOnce.add(uid);
    this.version++;
  }

  /** Bytes held beside the entries (the deliveries still owed: the Outbox, forward.ts), under the same bound. */
  charge(bytes: number): void {
    this.owed += bytes;
    if (bytes > 0) this.check();
  }

  /**
   * An entry from a state file, before the first poll; the uid it is known by now. A state file of an
   * earlier version knew a booking with an id past 2^53 by its content ('#…'): it is known by its id.
   */
  load(uid: string, entry: Entry): string {
    const known = uid.startsWith('#') && entry.whole ? uidOf(parseJson(entry.text), entry.fp) : uid;
    this.commit({ uid: known, item: undefined, after: entry });
    return known;
  }

  /**
   * Ends a complete poll: the bookings it did not see have left the list (and the snapshot), but for
   * those `spared` (the service still has them, and no walk before this one missed them).
   */
  sweep(spared: ReadonlySet<string> = new Set()): [string, Entry][] {
    const gone: [string, Entry][] = [];
    for (const [uid, ref] of this.refs) {
      if (this.texts.seen(ref) === this.poll) continue;
      if (spared.has(uid) && !this.missedOnce.has(uid)) {
        this.markMissed(uid);
        continue;
      }
      this.missedOnce.delete(uid);
      gone.push([uid, this.texts.get(ref)]);
      this.texts.free(ref);
      this.refs.delete(uid);
      this.version++;
    }
    this.texts.compact(this.refs);
    return gone;
  }

  private check(): void {
    if (this.texts.live + this.refs.size * ENTRY_COST + this.owed > this.maxBytes) throw overBound(this.maxBytes, this.refs.size);
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
    if (stringifyJson(was ?? null) !== stringifyJson(value ?? null)) setOwn(changes, path, [was ?? null, value ?? null]);
    old.delete(path);
  }
  for (const [path, was] of old) setOwn(changes, path, [was ?? null, null]);
  if (Object.keys(changes).length === 0 && !(before.whole && after.whole)) changes['(fingerprint)'] = [before.fp, after.fp];
  return changes;
}
