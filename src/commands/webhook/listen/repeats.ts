// Which deliveries `listen` has seen before: a sender that gets no 2xx answer (or no answer in time)
// sends the same delivery again, with the same body bytes, or at least the same event id ("id" at
// the top of the body). Each arrival is matched to the first of its kind, so the line can say
// `attempt 3 of <first capture>, +4 s` and --respond-after can fail the first N attempts of each.
// Memory stays flat: a fixed-size fingerprint (SHA-256) per body and per event id, for the most
// recent MAX_REMEMBERED deliveries only; older ones are forgotten (a repeat of one is a first again).
import { createHash } from 'node:crypto';

const MAX_REMEMBERED = 1000;
// An id is looked for only in a body this small: parsing is the cost, and deliveries are small.
const ID_SCAN_LIMIT = 1024 * 1024;

interface Entry {
  attempts: number;
  firstAt: number;
  lastAt: number;
  /** The first attempt's capture (set once it is saved); null when it was not saved. */
  capture: string | null;
}

export interface Attempt {
  /** 1 for a first delivery. */
  n: number;
  /** The first attempt's capture, or null (not saved). */
  first: string | null;
  firstAt: Date;
  sinceFirstMs: number;
  sincePreviousMs: number;
  /** Records the capture of a first attempt once it is saved. */
  saved(capture: string | null): void;
}

export class Repeats {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = MAX_REMEMBERED) {}

  /**
   * Counts this arrival and returns which attempt it is: `fingerprint` is the body's SHA-256 (base64,
   * made as it arrived); `body`, when kept in memory, is where its event id is looked for.
   */
  arrive(fingerprint: string, body: Buffer | undefined, time: Date): Attempt {
    const keys = [`b${fingerprint}`];
    const id = body && eventId(body);
    if (id !== undefined) keys.push(`i${createHash('sha256').update(id).digest('base64')}`);
    const now = time.getTime();
    let entry = keys.map((k) => this.entries.get(k)).find((e) => e !== undefined);
    const previous = entry?.lastAt ?? now;
    if (entry) {
      entry.attempts++;
      entry.lastAt = now;
    } else {
      entry = { attempts: 1, firstAt: now, lastAt: now, capture: null };
    }
    // Re-inserted: the Map's order is then least recently seen first, which is what is forgotten.
    for (const k of keys) {
      this.entries.delete(k);
      this.entries.set(k, entry);
    }
    while (this.entries.size > this.max * 2) this.entries.delete(this.entries.keys().next().value!);
    const e = entry;
    return {
      n: e.attempts,
      first: e.capture,
      firstAt: new Date(e.firstAt),
      sinceFirstMs: now - e.firstAt,
      sincePreviousMs: now - previous,
      saved: (capture) => {
        if (e.attempts === 1) e.capture = capture;
      },
    };
  }
}

/** The body's top-level "id" (string or number), when it is a small JSON object that has one. */
function eventId(body: Buffer): string | undefined {
  if (body.length > ID_SCAN_LIMIT || body[0] !== 0x7b) return undefined;
  try {
    const id = (JSON.parse(body.toString('utf8')) as { id?: unknown }).id;
    return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
  } catch {
    return undefined;
  }
}
