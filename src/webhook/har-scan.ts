// Where a HAR file's log.entries are, found without parsing the file whole. One JSON.parse of a 120 MB
// HAR of 100,000 entries held 0.8-1.8 GB at its peak and kept Ctrl-C waiting 3-9 s for its end; har.ts
// now parses one batch of entries at a time, and this walk tells it where they are.
//
// The walk reads the bytes once, a part at a time with a turn between parts (where Ctrl-C is seen),
// and only tells strings from structure and counts brackets: it records the `[`, the commas and the
// `]` of the array JSON.parse would make doc.log.entries, which is the last "entries" array of the
// last "log" object (JSON.parse keeps the last of a key written twice). It checks no grammar: har.ts
// hands every entry's bytes, and the rest of the file around the array, to JSON.parse, which does.
//
// Not src/base/json-scan.ts: that scan records only the arrays at a body's top (the body, or one of
// its fields), not one two objects down, and does work per byte for lossless numbers and for copying
// elements as they are, which a HAR has no use for (scanJson took 0.6-1.1 s on the HARs above, with
// nothing recorded; this walk 0.25-0.45 s).
import { isKey, stringEnd } from '../base/json-scan';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

// Bytes walked between two turns: a few milliseconds (a string that crosses the end is read to its end).
const PART = 1024 * 1024;

export interface HarLayout {
  /**
   * The offsets of the entries array's `[`, of each comma between its elements and of its `]`: entry
   * k is the bytes between bounds[k] and bounds[k + 1]. Undefined when the file holds no such array.
   */
  bounds: number[] | undefined;
  /** The bytes end inside a string or an open object or array: not JSON (a file cut short). */
  cutShort: boolean;
}

/** The layout of the HAR file in bytes[start..] (after any BOM), with `turn()` (which may throw) between parts. */
export async function harLayout(bytes: Buffer, start: number, turn: () => Promise<void>): Promise<HarLayout> {
  const walk = new Walk(bytes, start);
  while (walk.i < bytes.length) {
    walk.run(Math.min(bytes.length, walk.i + PART));
    await turn();
  }
  return { bounds: walk.found, cutShort: walk.depth !== 0 || walk.inString };
}

/** The walk's state between parts. Depth 1 is inside the file's top value, 2 inside a log, 3 inside its entries. */
class Walk {
  depth = 0;
  inString = false;
  /** The first byte of the top value: `{` when it is an object, the only kind that has a log. */
  private top = 0;
  /** Whether the last key at depth 1 is "log"; then whether the value at depth 2 is that log object. */
  private logKey = false;
  private inLog = false;
  /** Whether the last key of the log being walked is "entries". */
  private entriesKey = false;
  /** The bounds so far of the entries array being walked, and of the last one walked whole. */
  private open: number[] | undefined;
  found: number[] | undefined;

  constructor(
    private readonly bytes: Buffer,
    public i: number,
  ) {}

  /** Up to `limit`, or past it to the end of a string that crosses it. */
  run(limit: number): void {
    const { bytes } = this;
    const end = bytes.length;
    let { i, depth } = this;
    for (; i < limit; i++) {
      const b = bytes[i]!;
      if (b === QUOTE) {
        const from = i + 1;
        i = stringEnd(bytes, i);
        if (i >= end) {
          this.inString = true;
          break;
        }
        // Keys matter only in the top object and in a log: a handful per file, so looked at closely.
        if ((depth === 1 ? this.top === OPEN_OBJECT : depth === 2 && this.inLog) && isKey(bytes, i + 1)) {
          if (depth === 1) this.logKey = named(bytes, from, i, 'log');
          else this.entriesKey = named(bytes, from, i, 'entries');
        }
      } else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
        if (depth === 0) this.top = b;
        else if (depth === 1) {
          this.inLog = this.logKey && this.top === OPEN_OBJECT && b === OPEN_OBJECT;
          this.entriesKey = false;
        } else if (depth === 2 && this.inLog && this.entriesKey && b === OPEN_ARRAY) this.open = [i];
        depth++;
      } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) {
        if (depth === 3 && this.open !== undefined) {
          this.open.push(i);
          this.found = this.open;
          this.open = undefined;
        } else if (depth === 2) this.inLog = false;
        depth--;
      } else if (b === COMMA && depth === 3 && this.open !== undefined) this.open.push(i);
    }
    this.i = i;
    this.depth = depth;
  }
}

/** Whether the key written bytes[from, to) is `name` as JSON.parse reads it ("\u006cog" is log). */
function named(bytes: Buffer, from: number, to: number, name: string): boolean {
  if (!bytes.subarray(from, to).includes(BACKSLASH)) return to - from === name.length && bytes.toString('latin1', from, to) === name;
  try {
    return JSON.parse(bytes.toString('utf8', from - 1, to + 1)) === name;
  } catch {
    return false; // no JSON string: the parse of the file reports it
  }
}
