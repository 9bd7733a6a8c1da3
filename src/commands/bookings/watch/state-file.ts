// --state FILE: the snapshot (snapshot.ts) kept between runs, so that the next run's first report is
// what changed while nothing watched. One JSON line of header (what the snapshot is of: base URL,
// profile, filters; how many lines of each kind follow), then one line per booking: [uid,
// fingerprint, whole, text], one per delivery still owed to --forward-to (the Outbox, forward.ts):
// [id, event, uid, body], and one per page known by its validators (conditional.ts): [request, etag,
// last-modified, next, uids]. Lines, so that it is read and written a chunk at a time: memory and file
// size stay proportional to the number of bookings. It is saved atomically (a temporary file beside
// it, synced, then renamed over it), so a crash or Ctrl-C leaves the old file or the new one, never
// half of one; the rename replaces a link at the path, never writes through it. It is opened and
// checked as opened by base/own-file.ts: a file that is not one (a symlink, a folder, a FIFO), is too
// big, is another user's or writable by others, or does not read as a whole state file is refused
// with exit 2 and left as it is; so is one of another base URL, profile or list.
import { randomBytes } from 'node:crypto';
import { closeSync, fsyncSync, openSync, readSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { checkpoint } from '../../../base/checkpoint';
import { FailureError, UsageError } from '../../../base/errors';
import { openOwnFile, type Refusal } from '../../../base/own-file';
import { isPlainObject } from '../../../base/plain-object';
import { formatBytes } from '../../../base/words';
import { EVENTS, type EventName } from '../../../webhook/events';
import type { Outbox, Pending } from './forward';
import type { ConditionalPages, KnownPage } from './conditional';
import type { Entry, Snapshot } from './snapshot';

const FORMAT = 'booking-watch-state';
const VERSION = 1;
/** Read and written this much at a time. */
const CHUNK = 1024 * 1024;

/** How to mend a state file refused as opened (base/own-file.ts). */
const STATE_FIX: Partial<Record<Refusal, string>> = {
  symlink: 'give the path of the file itself: booking saves a state file only where it reads it.',
  'other-owner': 'give a --state file of your own: its deliveries still owed are signed with your secret and sent.',
  'writable-by-others': 'run: chmod 600 on it (booking saves it 0600), or give a --state file of your own.',
};

/** What a state file is a snapshot of: a run with another base URL, profile or filters may not use it. */
export interface StateOrigin {
  base_url: string;
  profile: string;
  /** The list's filters (--status): another filter is another list. */
  filters: Record<string, string>;
}

interface Header extends StateOrigin {
  format: typeof FORMAT;
  version: number;
  saved_at: string;
  bookings: number;
  /** Deliveries still owed to --forward-to's receiver (the Outbox, forward.ts), after the bookings. */
  pending: number;
  /** Pages known by their validators (conditional.ts), last. */
  pages: number;
  /** Bookings a walk missed that the service still had: kept once (snapshot.ts); absent when none. */
  missed?: string[];
}

/** What a state file holds beside the snapshot. */
export interface StateParts {
  snapshot: Snapshot;
  outbox: Outbox;
  conditional: ConditionalPages;
}

/**
 * Loads `path` into `snapshot` (an empty one). false when the file does not exist yet: the run starts
 * afresh and creates it. `maxBytes` bounds the file as the snapshot's bound bounds memory.
 */
export async function loadState(
  path: string,
  parts: StateParts,
  origin: StateOrigin,
  maxBytes: number,
  opts: { flag?: string; signal?: AbortSignal } = {},
): Promise<{ savedAt: string } | false> {
  const flag = opts.flag ?? '--state';
  // The file as the user named it: `--state F` for watch, `--since F` for changes.
  const named = `${flag} ${path}`;
  const { snapshot, outbox, conditional } = parts;
  // Its deliveries still owed are signed with the secret and sent: the file must be the user's own.
  const file = openOwnFile(path, {
    name: named,
    maxBytes: maxBytes * 2,
    bound: `a state within --max-state ${formatBytes(maxBytes)} can be`,
    mustBeOwn: true,
    mayBeMissing: true,
    hint: (reason) => STATE_FIX[reason],
  });
  if (!file) return false;
  const { fd } = file;
  try {
    if (file.stats.size === 0) return false; // made by touch or mktemp: a new state file
    let header: Header | undefined;
    let count = 0;
    // Bookings known by another uid than the file's (snapshot.load): the known pages' lists follow.
    const renamed = new Map<string, string>();
    await eachLine(fd, opts.signal, (line, n) => {
      const value = parseLine(line, named, n);
      if (!header) {
        header = checkHeader(value, named, origin);
        return;
      }
      if (count < header.bookings) {
        const e = asEntry(value);
        if (!e) throw damaged(named, `line ${n} is not a booking's entry`);
        const uid = snapshot.load(e[0], e[1]);
        if (uid !== e[0]) renamed.set(e[0], uid);
      } else if (count < header.bookings + header.pending) {
        const p = asPending(value);
        if (!p) throw damaged(named, `line ${n} is not a delivery still owed`);
        outbox.push(p);
      } else {
        const page = asPage(value);
        if (!page) throw damaged(named, `line ${n} is not a known page`);
        conditional.load(page[0], renamed.size === 0 ? page[1] : { ...page[1], uids: page[1].uids.map((u) => renamed.get(u) ?? u) });
      }
      count++;
    });
    if (!header) throw damaged(named, 'it has no header line');
    const lines = header.bookings + header.pending + header.pages;
    if (count !== lines) throw damaged(named, `it holds ${count} lines after its header where the header says ${lines} (cut short?)`);
    for (const uid of Array.isArray(header.missed) ? header.missed : [])
      if (typeof uid === 'string') snapshot.markMissed(renamed.get(uid) ?? uid);
    return { savedAt: header.saved_at };
  } finally {
    closeSync(fd);
  }
}

/** Writes the snapshot to `path` atomically: a temporary file in the same folder, synced, renamed over it. */
export function saveState(path: string, parts: StateParts, origin: StateOrigin, now: Date): void {
  const { snapshot, outbox, conditional } = parts;
  const pages = [...conditional.pages()];
  // Its own name each time: a pid is reused (a container's booking is often pid 1), and a file left
  // by a run killed mid-save would make 'wx' fail for ever. Such a leftover is not removed: booking
  // removes only the temporary file it made itself, below.
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  let fd: number;
  try {
    fd = openSync(temporary, 'wx', 0o600);
  } catch (err) {
    throw notSaved(path, err);
  }
  try {
    const saved_at = now.toISOString();
    const header: Header = {
      format: FORMAT,
      version: VERSION,
      ...origin,
      saved_at,
      bookings: snapshot.size,
      pending: outbox.size,
      pages: pages.length,
      ...(snapshot.missed.length > 0 ? { missed: [...snapshot.missed] } : {}),
    };
    let chunk = `${JSON.stringify(header)}\n`;
    const line = (value: unknown) => {
      chunk += `${JSON.stringify(value)}\n`;
      if (chunk.length < CHUNK) return;
      // writeFileSync on an fd writes the whole chunk (writeSync may write part of it on a full
      // disk and say so only in its count): a short file renamed over the last good one was damaged.
      writeFileSync(fd, chunk);
      chunk = '';
    };
    for (const [uid, e] of snapshot.entries) line([uid, e.fp, e.whole ? 1 : 0, e.text]);
    for (const p of outbox.queue) line([p.id, p.event, p.uid, p.body]);
    for (const [key, p] of pages) line([key, p.etag ?? null, p.lastModified ?? null, p.next ?? null, p.uids]);
    writeFileSync(fd, chunk);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, path);
  } catch (err) {
    try {
      closeSync(fd);
    } catch {}
    try {
      unlinkSync(temporary);
    } catch {}
    throw notSaved(path, err);
  }
}

/** A save that failed (a full disk, a folder not writable): the old file is still there, whole. */
function notSaved(path: string, err: unknown): FailureError {
  const e = err as NodeJS.ErrnoException;
  return new FailureError(`cannot save --state ${path}: ${e.code ?? e.message}; the file is left as it was last saved.`);
}

/**
 * Each line of the file, read a chunk at a time (a line is at most what one entry can be). Lines are
 * found in the bytes and each decoded once whole: a character cut by a read's edge is never decoded
 * in halves, and the part of a long line already read is never searched again. A checkpoint after
 * each chunk lets Ctrl-C in: a state of 100,000 bookings takes a second or more to load on node 20.
 */
async function eachLine(fd: number, signal: AbortSignal | undefined, each: (line: string, n: number) => void): Promise<void> {
  const check = checkpoint(signal);
  const buffer = Buffer.allocUnsafe(CHUNK);
  // The start of the current line, copied out of the reused buffer.
  let pieces: Buffer[] = [];
  let n = 0;
  for (;;) {
    const got = readSync(fd, buffer, 0, CHUNK, null);
    if (got === 0) break;
    const chunk = buffer.subarray(0, got);
    let start = 0;
    for (let end = chunk.indexOf(LF); end >= 0; end = chunk.indexOf(LF, start)) {
      const tail = chunk.subarray(start, end);
      each((pieces.length > 0 ? Buffer.concat([...pieces, tail]) : tail).toString('utf8'), ++n);
      pieces = [];
      start = end + 1;
    }
    if (start < got) pieces.push(Buffer.from(chunk.subarray(start)));
    await check();
  }
  if (pieces.length > 0) each(Buffer.concat(pieces).toString('utf8'), ++n);
}

const LF = 0x0a;

function parseLine(line: string, named: string, n: number): unknown {
  try {
    return JSON.parse(line);
  } catch {
    throw damaged(named, `line ${n} is not JSON`);
  }
}

function checkHeader(value: unknown, named: string, origin: StateOrigin): Header {
  if (!isPlainObject(value) || value.format !== FORMAT) throw damaged(named, 'it is not a bookings watch state file');
  if (value.version !== VERSION) throw new UsageError(`${named} is of version ${String(value.version)}, which this booking does not read.`);
  const h = value as unknown as Header;
  if (
    typeof h.base_url !== 'string' ||
    typeof h.profile !== 'string' ||
    !isPlainObject(h.filters) ||
    !Number.isSafeInteger(h.bookings) ||
    !Number.isSafeInteger(h.pending) ||
    !Number.isSafeInteger(h.pages)
  )
    throw damaged(named, 'its header lacks base_url, profile, filters, bookings, pending or pages');
  if (h.base_url !== origin.base_url || h.profile !== origin.profile)
    throw new UsageError(
      `${named} was saved for ${h.base_url} (profile ${h.profile}), not ${origin.base_url} (profile ${origin.profile}); give each service its own state file.`,
    );
  const was = filtersText(h.filters);
  const now = filtersText(origin.filters);
  if (was !== now) throw new UsageError(`${named} was saved for the list ${was}, not ${now}; give each list its own state file.`);
  return h;
}

function filtersText(filters: Record<string, unknown>): string {
  const parts = Object.entries(filters).map(([k, v]) => `--${k} ${String(v)}`);
  return parts.length > 0 ? `with ${parts.join(' ')}` : 'without filters';
}

function asEntry(value: unknown): [string, Entry] | undefined {
  if (!Array.isArray(value) || value.length !== 4) return undefined;
  const [uid, fp, whole, text] = value as unknown[];
  if (typeof uid !== 'string' || typeof fp !== 'string' || (whole !== 0 && whole !== 1) || typeof text !== 'string') return undefined;
  // The kept text is read back as JSON when the booking changes or leaves (or, from an earlier
  // version's file, at once): a line whose text is not is damage, said now, not a crash later.
  if (!isJsonText(text)) return undefined;
  return [uid, { fp, text, whole: whole === 1, seen: 0 }];
}

function isJsonText(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function asPending(value: unknown): Pending | undefined {
  if (!Array.isArray(value) || value.length !== 4 || !value.every((v) => typeof v === 'string')) return undefined;
  const [id, event, uid, body] = value as string[];
  if (!(EVENTS as readonly string[]).includes(event!)) return undefined;
  return { id: id!, event: event as EventName, uid: uid!, body: body! };
}

function asPage(value: unknown): [string, KnownPage] | undefined {
  if (!Array.isArray(value) || value.length !== 5) return undefined;
  const [key, etag, lastModified, next, uids] = value as unknown[];
  const text = (v: unknown) => v === null || typeof v === 'string';
  if (typeof key !== 'string' || !text(etag) || !text(lastModified) || !text(next)) return undefined;
  if (!Array.isArray(uids) || !uids.every((u) => typeof u === 'string')) return undefined;
  const page: KnownPage = { uids: uids as string[] };
  if (etag !== null) page.etag = etag as string;
  if (lastModified !== null) page.lastModified = lastModified as string;
  if (next !== null) page.next = next as string;
  return [key, page];
}

function damaged(named: string, why: string): UsageError {
  return new UsageError(
    `${named} is damaged: ${why}. It is left as it is; move it away (the next run then starts afresh) or give another state file.`,
  );
}
