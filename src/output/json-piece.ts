// One piece of a big body parsed (src/output/json-pieces.ts cuts the body into them): its bytes made
// into a text once, numbers and U+0000-led strings marked as parseMarked marks them, each long string
// decoded from the body's own bytes and each cut-out stretch replaced by a placeholder, then one
// JSON.parse whose marks the walk of src/output/json.ts turns back into what they stand for.
import type { JsonScan } from '../base/json-scan';
import { parseMarkedText } from './json';

// Elements per batch: about this many bytes (a text this size stays in V8's young generation).
export const BATCH_BYTES = 64 * 1024;
const CONTROL = /[\u0000-\u001f]/;

/**
 * JSON.parse of open + body[from, to) + close, marked: each number and U+0000-led string as
 * parseMarked marks them, each long string and each cut ([a, b) pairs in `cuts`, in body order)
 * replaced by a placeholder for its value (the decoded string; `cutValues` in order). The text is
 * made as bytes (one copy of each stretch, as parseMarked makes its own), then decoded once.
 */
export function parsePiece(
  body: Buffer,
  from: number,
  to: number,
  scan: JsonScan,
  cuts: number[],
  open: string,
  close: string,
  cutValues: unknown[] = [],
): unknown {
  const { numbers, nulStrings, longStrings } = scan;
  let n = firstAtOrAfter(numbers, 2, from);
  let s = firstAtOrAfter(nulStrings, 1, from);
  let l = firstAtOrAfter(longStrings, 2, from);
  let c = 0;
  const before = (list: number[], k: number) => k < list.length && list[k]! < to;
  if (cuts.length === 0 && !before(numbers, n) && !before(nulStrings, s) && !before(longStrings, l)) {
    // Nothing to mark: the bytes' own text, as parseMarked parses a body without marks.
    const text = body.toString('utf8', from, to);
    return JSON.parse(open === '' ? text : `${open}${text}${close}`);
  }
  // What the text can grow to: each number gains 8 bytes, each U+0000 mark 6, each placeholder at most 24.
  const most =
    open.length + to - from + close.length + (8 * (firstAtOrAfter(numbers, 2, to) - n)) / 2 + 6 * (firstAtOrAfter(nulStrings, 1, to) - s);
  const out = scratch(most + 24 * (cuts.length / 2 + (firstAtOrAfter(longStrings, 2, to) - l) / 2));
  const pieces: unknown[] = [];
  let at = out.write(open, 0, 'latin1');
  let marks = 0;
  let read = from;
  for (;;) {
    // The next edit: whichever list's next entry comes first before `to`.
    const nextNumber = n < numbers.length && numbers[n]! < to ? numbers[n]! : to;
    const nextNul = s < nulStrings.length && nulStrings[s]! < to ? nulStrings[s]! : to;
    const nextLong = l < longStrings.length && longStrings[l]! < to ? longStrings[l]! : to;
    const nextCut = c < cuts.length ? cuts[c]! : to;
    const next = Math.min(nextNumber, nextNul, nextLong, nextCut);
    if (next >= to) break;
    at += body.copy(out, at, read, next);
    if (next === nextCut) {
      pieces.push(cutValues[c / 2]);
      at += out.write(`"\\u0000~${pieces.length - 1}"`, at, 'latin1');
      read = cuts[c + 1]!;
      c += 2;
    } else if (next === nextLong) {
      pieces.push(longString(body, next, longStrings[l + 1]!));
      at += out.write(`"\\u0000~${pieces.length - 1}"`, at, 'latin1');
      read = longStrings[l + 1]!;
    } else if (next === nextNumber) {
      at += QUOTE_MARK.copy(out, at);
      at += body.copy(out, at, next, numbers[n + 1]!);
      out[at++] = QUOTE;
      read = numbers[n + 1]!;
    } else {
      at += QUOTE_MARK.copy(out, at, 1);
      read = next;
      s++;
    }
    marks++;
    // Past everything the edit covered (a cut array's numbers, a long string's own U+0000 mark).
    while (n < numbers.length && numbers[n]! < read) n += 2;
    while (s < nulStrings.length && nulStrings[s]! < read) s++;
    while (l < longStrings.length && longStrings[l]! < read) l += 2;
  }
  at += body.copy(out, at, read, to);
  at += out.write(close, at, 'latin1');
  return parseMarkedText(out.toString('utf8', 0, at), marks, pieces);
}

const QUOTE_MARK = Buffer.from('"\\u0000');
const QUOTE = 0x22;

// One buffer for the batches' texts, kept between them; a bigger text (the rest of a body without
// arrays) gets one of its own, let go of after.
const SCRATCH = 4 * BATCH_BYTES;
let kept: Buffer | undefined;

function scratch(size: number): Buffer {
  if (size > SCRATCH) return Buffer.allocUnsafeSlow(size);
  kept ??= Buffer.allocUnsafeSlow(SCRATCH);
  return kept;
}

// Long strings decoded so far in this run: the writers look for them in values only when there are some.
let longStrings = 0;

export const longStringsRead = (): number => longStrings;

/** The string whose JSON text (quotes included) is body[from, to): decoded from the bytes when nothing in it needs JSON.parse. */
function longString(body: Buffer, from: number, to: number): string {
  longStrings++;
  if (!body.subarray(from + 1, to - 1).includes(0x5c)) {
    const text = body.toString('utf8', from + 1, to - 1);
    // A raw control character is no JSON: JSON.parse below reports it.
    if (!CONTROL.test(text)) return text;
  }
  return JSON.parse(body.toString('utf8', from, to)) as string;
}

/** The index of the first entry (every `stride`th number of `list`, which is sorted) at or after `at`. */
function firstAtOrAfter(list: number[], stride: number, at: number): number {
  let lo = 0;
  let hi = list.length / stride;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid * stride]! < at) lo = mid + 1;
    else hi = mid;
  }
  return lo * stride;
}
