// JSON output of a big value in slices, with a checkpoint between them (issues 32 and 33).
// JSON.stringify of a 79 MB value is one synchronous stretch of a second or more: Ctrl-C was seen only
// after it, and its text, escaped, unmarked and encoded by the write, was several copies of it at once.
// Here a value bigger than a slice is written entry by entry (its array's elements, its object's
// fields, descending into those that are big themselves): each small entry as jsonText makes it,
// indented to its depth, and each long string (a megabyte or more: src/output/json-pieces.ts decodes
// them from a body's bytes) in slices of SLICE characters, each escaped as JSON.stringify escapes it.
// The text goes out about SLICE characters at a time, and between two writes the event loop turns
// (Ctrl-C is seen), a slow reader is waited for, and an aborted run stops (exit 130). The bytes are
// those of jsonText/jsonLine (property test).
//
// The key mask (src/output/door.ts) masks each write, so a key cut in two by a write's edge would pass
// it. Pretty text is cut only after a newline, which no key holds (it is sent in a header); compact
// text after the comma between two entries, so a key would have to hold the comma and the quote or
// bracket around it. A long string is masked whole first (ctx.io.mask), then sliced.
//
// Stopped part-way, the output ends with a newline: pretty text is then whole lines of a value left
// unclosed (as a json list is, docs/output.md), compact text a line that is no JSON; neither can be
// taken for the whole.
import { InterruptedError } from '../base/errors';
import { escapeJsonText } from './escape';
import { isLosslessNumber, jsonText } from './json';
import { longStringsRead } from './json-piece';
import { objectsBuilt } from './json-pieces';
import { keysInOrder } from './key-order';
import { drained, emit, type OutputContext } from './sink';

const SLICE = 64 * 1024;
const LONG = 1024 * 1024;

/**
 * Whether list items are to be checked for what writeJsonInSlices writes (isBigItem): only a run that
 * has read a long string or built an object in pieces has any.
 */
export const mayHoldBigItems = (): boolean => longStringsRead() > 0 || objectsBuilt() > 0;

/**
 * Whether a list item is to be written in slices: an object parsed in pieces (64 KiB of members or
 * more; asked first, since looking into its million members is itself a long step), or one holding
 * a long string.
 */
export const isBigItem = (value: unknown): boolean =>
  (typeof value === 'object' && value !== null && keysInOrder(value) !== undefined) || holdsLongString(value);

/** Whether `value` is or holds a string of LONG characters or more (at any depth). */
export function holdsLongString(value: unknown, long = LONG): boolean {
  if (typeof value === 'string') return value.length >= long;
  if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return false;
  for (const child of Array.isArray(value) ? value : Object.values(value)) if (holdsLongString(child, long)) return true;
  return false;
}

/**
 * `budget` less about how many characters of compact JSON `value` makes; the count stops once below
 * zero, so that asking about a big value costs no more than about a slice of it.
 */
function sizeLeft(value: unknown, budget: number): number {
  if (typeof value === 'string') return budget - value.length - 2;
  if (typeof value !== 'object' || value === null) return budget - 8;
  if (isLosslessNumber(value)) return budget - value.value.length;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && budget >= 0; i++) budget = sizeLeft(value[i], budget - 1);
    return budget;
  }
  for (const k in value) {
    budget = sizeLeft((value as Record<string, unknown>)[k], budget - k.length - 4);
    if (budget < 0) return budget;
  }
  return budget;
}

const SIZES = { long: LONG, slice: SLICE };

/**
 * About how many characters of JSON `value` makes, or -1 when it is to be written in slices: a long
 * string, or a container of more than a slice (the count stops there).
 */
function weigh(value: unknown, { long, slice } = SIZES): number {
  if (typeof value === 'string') return value.length >= long ? -1 : value.length + 2;
  if (typeof value !== 'object' || value === null || isLosslessNumber(value)) return 8;
  // An object parsed in pieces is big (64 KiB of JSON or more), and counting its keys is no slice of it.
  if (keysInOrder(value) !== undefined) return -1;
  const left = sizeLeft(value, slice);
  return left < 0 ? -1 : slice - left;
}

/** Whether `value` is to be written by writeJsonInSlices: a long string, or a container of more than a slice. */
export const isBigJson = (value: unknown): boolean => weigh(value) < 0;

/**
 * The fields keys[from, to) of `record`, in a copy whose keys keep their order (integer keys first, as
 * in any object, the others as they came). No prototype: `__proto__` is a field like any other, and
 * setting each field costs less than Object.fromEntries.
 */
function fields(record: Record<string, unknown>, keys: string[], from: number, to: number): Record<string, unknown> {
  const copy = Object.create(null) as Record<string, unknown>;
  for (let i = from; i < to; i++) copy[keys[i]!] = record[keys[i]!];
  return copy;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * `prefix`, then `value` as jsonText(value, indent) writes it with each of its lines but the first
 * indented by `pad` (the json list writer's elements), then `end`. `sizes`: a test's small ones.
 */
export async function writeJsonInSlices(
  ctx: OutputContext,
  value: unknown,
  indent: number,
  pad: string,
  prefix: string,
  end: string,
  sizes = SIZES,
): Promise<void> {
  const { slice } = sizes;
  const pretty = indent > 0;
  const step = ' '.repeat(indent);
  let text = prefix;
  let lineEnded = true;
  // The text made so far goes out; then a turn, the reader, and Ctrl-C.
  const flush = async (): Promise<void> => {
    emit(ctx, text);
    if (text.length > 0) lineEnded = text.charCodeAt(text.length - 1) === NEWLINE;
    text = '';
    await nextTurn();
    await drained(ctx);
    if (ctx.signal?.aborted) {
      if (!lineEnded) emit(ctx, '\n');
      throw new InterruptedError();
    }
  };
  const putLong = async (value: string): Promise<void> => {
    const masked = ctx.io.mask(value);
    text += '"';
    for (let at = 0; at < masked.length; ) {
      let to = Math.min(masked.length, at + slice);
      // A surrogate pair stays whole: halves apart would each be written as a lone \uXXXX.
      const last = masked.charCodeAt(to - 1);
      if (to < masked.length && last >= 0xd800 && last <= 0xdbff) to--;
      text += escapeJsonText(JSON.stringify(masked.slice(at, to)).slice(1, -1));
      at = to;
      await flush();
    }
    text += '"';
  };
  // jsonText's own text, its lines but the first indented by `at`.
  const indented = (value: unknown, at: string): string => {
    const own = jsonText(value, indent);
    return at === '' || !pretty ? own : own.replace(/\n/g, `\n${at}`);
  };
  // A long string, or a container written a run of its small entries at a time (one jsonText of them
  // all, its brackets cut off) and its big ones each in turn.
  const putBig = async (value: unknown, at: string): Promise<void> => {
    if (typeof value === 'string') return putLong(value);
    const inner = at + step;
    const array = Array.isArray(value);
    const record = value as Record<string, unknown>;
    // JSON.stringify's choices: an object's own keys in order, those whose value is undefined left out
    // (none in an object parsed in pieces, whose keys are known: Object.keys of them would be one step).
    const keys = array ? undefined : (keysInOrder(record) ?? Object.keys(record).filter((k) => record[k] !== undefined));
    const count = keys ? keys.length : (value as unknown[]).length;
    const entry = (i: number) => (keys ? record[keys[i]!] : (value as unknown[])[i]);
    // An object whose every value is undefined (big only by its keys) is `{}`.
    if (count === 0) return void (text += array ? '[]' : '{}');
    text += array ? '[' : '{';
    for (let i = 0; i < count; ) {
      if (i > 0) text += ',';
      if (pretty) text += '\n';
      if (i > 0 && text.length >= slice) await flush();
      const weight = weigh(entry(i), sizes);
      if (weight < 0) {
        text += inner;
        if (keys) text += `${escapeJsonText(JSON.stringify(keys[i]))}${pretty ? ': ' : ':'}`;
        await putBig(entry(i), inner);
        i++;
        continue;
      }
      let j = i + 1;
      for (let size = weight, w = 0; j < count && size < slice && (w = weigh(entry(j), sizes)) >= 0; j++) size += w;
      const run = keys ? fields(record, keys, i, j) : (value as unknown[]).slice(i, j);
      // `[\n  a,\n  b\n]` (`[a,b]`) less its brackets and their newlines.
      text += pretty ? indented(run, at).slice(2, -2 - at.length) : jsonText(run, 0).slice(1, -1);
      i = j;
    }
    text += `${pretty ? `\n${at}` : ''}${array ? ']' : '}'}`;
  };
  if (weigh(value, sizes) < 0) await putBig(value, pad);
  else text += indented(value, pad);
  emit(ctx, text + end);
}

const NEWLINE = 0x0a;
