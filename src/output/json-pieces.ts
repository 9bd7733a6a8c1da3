// A big body parsed in pieces (issues 32 and 33). One JSON.parse of a 63 MiB listing, or of a 79 MB
// object of a million small members, is a stretch of a second or more that Ctrl-C cannot cut, and its
// text (the body decoded, marked for the numbers) is two more copies of the body beside it. Here the
// text is never made whole; the pieces (src/output/json-piece.ts) are:
// - a batch of ~64 KiB of an array's elements (one the scan recorded: the body, or a field of it),
//   `[` + their bytes + `]`;
// - a batch of ~64 KiB of a big object's members (the scan records the members of every object of
//   64 KiB or more), `{` + their bytes + `}`, merged into the object as JSON.parse would make it; a
//   member whose value is itself a big object or a recorded array is parsed the same way, in turn;
// - a long string value (LONG_STRING bytes or more), decoded from the body's own bytes, once;
// - what is left of a body that is an array (`[`, its placeholder, `]`).
// A turn (which throws on Ctrl-C) comes between pieces. The value is what parseMarked (JSON.parse)
// gives: each piece is valid JSON when the whole is (the scan cut them at the containers' own
// commas), the whole is when every piece is (no empty member or element, nothing but whitespace
// around), and any piece that fails sends the whole body to parseMarked, which then reports the
// error as it always has (or reads what a piece alone could not, such as `[ ]`).
import { CliError } from '../base/errors';
import { stringEnd, type JsonScan } from '../base/json-scan';
import { parseMarked } from './json';
import { BATCH_BYTES, parsePiece } from './json-piece';
import { keepKeys } from './key-order';

const CLOSE = 0x5d; // ]
const QUOTE = 0x22;
const COLON = 0x3a;

/**
 * parseMarked's value of body[start..], built piece by piece with `turn()` (which may throw to stop)
 * between pieces. `scan` is scanJsonInTurns's (its arrays' elements and big objects' members recorded).
 */
export async function parseInPieces(
  body: Buffer,
  start: number,
  scan: JsonScan,
  turn: () => Promise<void>,
  batchBytes = BATCH_BYTES,
): Promise<unknown> {
  // Arrays with elements; each must end at its own `]` (not at a trailing comma, nor unclosed).
  const arrays = scan.arrays.map((a) => a.elements).filter((e) => e.length > 0);
  if (arrays.some((e) => body[e[e.length - 2]!] !== CLOSE)) return parseMarked(body, start, scan.numbers, scan.nulStrings);
  const pieces = new Pieces(body, scan, turn, batchBytes, arrays);
  try {
    const top = pieces.objects.get(skipSpace(body, start));
    if (top !== undefined) return await pieces.value(start, body.length);
    return await pieces.arraysAndRest(start, arrays);
  } catch (err) {
    if (err instanceof CliError) throw err; // Ctrl-C between pieces
    return parseMarked(body, start, scan.numbers, scan.nulStrings);
  }
}

// Objects built in pieces so far in this run: the list writers look for them only when there are some.
let built = 0;

export const objectsBuilt = (): number => built;

class Pieces {
  /** Each big object's offsets (JsonScan.objects) by the offset of its `{`. */
  readonly objects: Map<number, number[]>;
  /** Each recorded array's elements by the offset of its `[`. */
  private readonly arraysAt: Map<number, number[]>;

  constructor(
    private readonly body: Buffer,
    private readonly scan: JsonScan,
    private readonly turn: () => Promise<void>,
    private readonly batchBytes: number,
    arrays: number[][],
  ) {
    this.objects = new Map((scan.objects ?? []).map((o) => [o[0]!, o]));
    this.arraysAt = new Map(arrays.map((e) => [e[0]! - 1, e]));
  }

  /** The value whose bytes, whitespace around it included, are body[from, to). */
  async value(from: number, to: number): Promise<unknown> {
    const at = skipSpace(this.body, from);
    const members = this.objects.get(at);
    const elements = this.arraysAt.get(at);
    if (members === undefined && elements === undefined) return parsePiece(this.body, from, to, this.scan, [], '', '');
    const end = members ? members[members.length - 1]! : elements![elements!.length - 2]!;
    if (skipSpace(this.body, end + 1) < to) throw new SyntaxError('more than one value');
    return members ? this.object(members) : this.array(elements!);
  }

  /** The array whose elements are `elements` (see RawArray), a batch of them at a time. */
  async array(elements: number[]): Promise<unknown[]> {
    const { body, scan, batchBytes } = this;
    const items: unknown[] = [];
    for (let i = 0; i < elements.length; ) {
      let j = i;
      while (j + 3 < elements.length && elements[j + 4]! - elements[i]! < batchBytes) j += 3;
      // One element alone (a big one, often) is parsed as it is (no copy of it with brackets around),
      // or in pieces when it is a big object.
      const batch =
        j === i
          ? [await this.value(elements[i]!, elements[i + 1]!)]
          : (parsePiece(body, elements[i]!, elements[j + 1]!, scan, [], '[', ']') as unknown[]);
      // An empty element (`[,1]`) would vanish from a batch of its own (`[]`): not what JSON.parse reads.
      if (batch.length !== (j - i) / 3 + 1) throw new SyntaxError('an empty element');
      for (const item of batch) items.push(item);
      i = j + 3;
      await this.turn();
    }
    return items;
  }

  /**
   * The object whose `{`, member commas and `}` are at `bounds`: runs of small members one piece
   * each, a member whose value is big and recorded on its own (its value in pieces).
   */
  async object(bounds: number[]): Promise<Record<string, unknown>> {
    const { body, scan, batchBytes } = this;
    const out = new Built();
    const last = bounds.length - 1;
    for (let m = 0; m < last; ) {
      const head = bounds[m + 1]! - bounds[m]! >= batchBytes ? this.bigMember(bounds[m]! + 1) : undefined;
      if (head !== undefined) {
        out.put(head.key, await this.value(head.value, bounds[m + 1]!));
        m++;
      } else {
        let n = m + 1;
        while (n < last && bounds[n + 1]! - bounds[m]! < batchBytes) n++;
        // An empty member (`{"a":1,,"b":2}`) alone would read as `{}`: only `{}` itself is that.
        if (n === m + 1 && last > 1 && skipSpace(body, bounds[m]! + 1) === bounds[n]) throw new SyntaxError('an empty member');
        out.putAll(parsePiece(body, bounds[m]! + 1, bounds[n]!, scan, [], '{', '}') as Record<string, unknown>);
        m = n;
      }
      await this.turn();
    }
    return out.done();
  }

  /** The member that starts at `from`: its key and where its value starts, when that value is parsed in pieces. */
  private bigMember(from: number): { key: string; value: number } | undefined {
    const { body } = this;
    const open = skipSpace(body, from);
    if (body[open] !== QUOTE) return undefined;
    const close = stringEnd(body, open);
    const colon = skipSpace(body, close + 1);
    if (body[colon] !== COLON) return undefined;
    const value = skipSpace(body, colon + 1);
    if (!this.objects.has(value) && !this.arraysAt.has(value)) return undefined;
    // The name as JSON.parse reads it: escapes decoded, UTF-8.
    return { key: JSON.parse(body.toString('utf8', open, close + 1)) as string, value };
  }

  /** A body that is an array (or an object without recorded members): its arrays, then the rest around them. */
  async arraysAndRest(start: number, arrays: number[][]): Promise<unknown> {
    const parsed: unknown[][] = [];
    for (const elements of arrays) parsed.push(await this.array(elements));
    // The rest, each array (`[` to `]`) cut out for a placeholder.
    const cuts = arrays.flatMap((e) => [e[0]! - 1, e[e.length - 2]! + 1]);
    return parsePiece(this.body, start, this.body.length, this.scan, cuts, '', '', parsed);
  }
}

/**
 * An object built a member at a time as JSON.parse builds it: a name met again keeps its place and
 * takes the later value; `__proto__` is a member like any other (defined, not set: setting it would
 * change the prototype). Its keys are kept in Object.keys order: array indices first, ascending.
 */
class Built {
  private value: Record<string, unknown> = {};
  private keys: string[] = [];
  private indices = false;

  /** The members of `run` (a piece JSON.parse made), in its order; the first run is taken as it is. */
  putAll(run: Record<string, unknown>): void {
    const keys = Object.keys(run);
    if (this.keys.length > 0) {
      for (const key of keys) this.put(key, run[key]);
      return;
    }
    this.value = run;
    this.keys = keys;
    this.indices = keys.length > 0 && isArrayIndex(keys[0]!);
  }

  put(key: string, v: unknown): void {
    if (!Object.hasOwn(this.value, key)) {
      this.keys.push(key);
      if (!this.indices && isArrayIndex(key)) this.indices = true;
      if (key === '__proto__')
        return void Object.defineProperty(this.value, key, { value: v, writable: true, enumerable: true, configurable: true });
    }
    this.value[key] = v;
  }

  done(): Record<string, unknown> {
    const { value, keys } = this;
    const order = this.indices
      ? [...keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b)), ...keys.filter((k) => !isArrayIndex(k))]
      : keys;
    keepKeys(value, order);
    built++;
    return value;
  }
}

/** Whether an object orders `key` first, as an array index (a canonical integer below 2^32 - 1). */
function isArrayIndex(key: string): boolean {
  const n = Number(key);
  return Number.isInteger(n) && n >= 0 && n < 4294967295 && String(n) === key;
}

function skipSpace(body: Buffer, i: number): number {
  while (i < body.length && (body[i] === 0x20 || body[i] === 0x0a || body[i] === 0x0d || body[i] === 0x09)) i++;
  return i;
}
