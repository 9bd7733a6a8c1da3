// How many terminal columns text takes, and text cut to a number of columns, in one pass over its
// graphemes: linear in the text's length whatever it holds. (cli-table3's truncate removes one
// character at a time and measures the whole text again: a 24 KB cell of CJK text took 105 s.)
//
// A grapheme's width follows string-width 8's rules (the width terminals give a cluster), on
// get-east-asian-width's Unicode tables: string-width itself only measures whole strings, and a cut
// needs the width of each grapheme as it goes. Text reaching here is already escaped (no control
// characters or escape sequences are left to skip).
import { eastAsianWidth } from 'get-east-asian-width';

const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
// Unicode sets need the `v` flag (node 20 has it; TypeScript's ES2022 target does not know it).
const NON_PRINTING = String.raw`\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}`;
const ZERO_WIDTH = new RegExp(`^[${NON_PRINTING}]+$`, 'v');
const LEADING_NON_PRINTING = new RegExp(`^[${NON_PRINTING}]+`, 'v');
// RGI_Emoji takes ~80 ms to compile: made when a cluster of several code points first needs it. A
// single code point is an RGI emoji when it has Emoji_Presentation.
let rgiEmoji: RegExp | undefined;
const EMOJI_PRESENTATION = /^\p{Emoji_Presentation}$/u;
const KEYCAP = /^[\d#*]\u20E3$/;
const PICTOGRAPHIC = /\p{Extended_Pictographic}/gu;
const SPACING_MARK = /\p{Spacing_Mark}/u;
// What can join code points into one grapheme (extending marks, joiners, spacing marks, emoji
// modifiers and tags, regional indicators, Hangul jamo, the few prepended letters). Text without
// any of these is one grapheme per code point, measured without Intl.Segmenter, which costs
// ~12 µs a segment on node 20 (24,000 CJK characters: 0.3 s against 0.03 s).
const CLUSTERING =
  /[\p{Grapheme_Extend}\p{Mc}\p{Cf}\p{Regional_Indicator}\p{Emoji_Modifier}\u1100-\u11FF\uA960-\uA97F\uD7B0-\uD7FF\u0D4E\u{111C2}\u{111C3}\u{1193F}\u{11941}\u{11A3A}\u{11A84}-\u{11A89}\u{11D46}\u{11F02}]/u;

/**
 * The most code units of one cell that are measured. A column is never wider than the terminal,
 * and nearly every grapheme takes at least one column, so the rest of a longer cell could not be
 * shown anyway: it is dropped before measuring (the cell then ends with …).
 */
export const MAX_CELL_UNITS = 4096;

let segmenter: Intl.Segmenter | undefined;

/** The text's graphemes, each with the columns it takes. */
function* graphemes(text: string): Generator<[string, number]> {
  if (!CLUSTERING.test(text)) {
    for (const ch of text) yield [ch, graphemeWidth(ch)];
    return;
  }
  segmenter ??= new Intl.Segmenter();
  for (const { segment } of segmenter.segment(text)) yield [segment, graphemeWidth(segment)];
}

/** Columns one grapheme takes: 0, 1 or 2 (more only for a cluster with several spacing marks). */
function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  if (ZERO_WIDTH.test(g)) return 0;
  if (isOneCodePoint(g)) {
    if (EMOJI_PRESENTATION.test(g)) return 2;
  } else {
    // biome-ignore lint/complexity/useRegexLiterals: a /v literal needs TypeScript's ES2024 target
    rgiEmoji ??= new RegExp(String.raw`^\p{RGI_Emoji}$`, 'v');
    if (rgiEmoji.test(g) || emojiSequence(g)) return 2;
  }
  const visible = g.replace(LEADING_NON_PRINTING, '');
  let width = eastAsianWidth(visible.codePointAt(0)!);
  // Spacing marks and halfwidth/fullwidth forms after the base (dakuten, prolonged sound mark) add theirs.
  let first = true;
  for (const ch of visible) {
    if (first) first = false;
    else if (SPACING_MARK.test(ch) || (ch >= '\uFF00' && ch <= '\uFFEF')) width += eastAsianWidth(ch.codePointAt(0)!);
  }
  return width;
}

function isOneCodePoint(g: string): boolean {
  return g.length === 1 || (g.length === 2 && g.codePointAt(0)! > 0xffff);
}

/** Emoji sequences terminals draw two columns wide though they are not RGI (no VS16, keycaps). */
function emojiSequence(g: string): boolean {
  if (g.length > 50) return false;
  if (KEYCAP.test(g)) return true;
  return g.includes('\u200D') && (g.match(PICTOGRAPHIC)?.length ?? 0) >= 2;
}

/** Columns the text takes (of at most its first MAX_CELL_UNITS code units). */
export function textWidth(text: string): number {
  return fitText(text, Infinity)[1];
}

/** The text's first `units` code units, never half of a surrogate pair. */
export function headUnits(text: string, units: number): string {
  const code = text.charCodeAt(units - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? units - 1 : units);
}

/**
 * The text cut to `max` columns (ending with … when cut) and the columns it then takes. Longer
 * than MAX_CELL_UNITS code units, it is cut there first (and so always ends with …).
 */
export function fitText(text: string, max: number): [string, number] {
  const long = text.length > MAX_CELL_UNITS;
  if (!long && PRINTABLE_ASCII.test(text)) {
    return text.length <= max ? [text, text.length] : [`${text.slice(0, Math.max(0, max - 1))}…`, Math.max(0, max - 1) + 1];
  }
  const head = long ? headUnits(text, MAX_CELL_UNITS) : text;
  // One pass: `end` is where the text may stop to leave a column for …; past `max`, it stops there.
  const room = Math.max(0, max - 1);
  let width = 0;
  let index = 0;
  let end = 0;
  let endWidth = 0;
  for (const [segment, w] of graphemes(head)) {
    if (width + w > max) return [`${head.slice(0, end)}…`, endWidth + 1];
    width += w;
    index += segment.length;
    if (width <= room) {
      end = index;
      endWidth = width;
    }
  }
  if (!long) return [head, width];
  // Cut by length, it shows where: the … takes the last column if all of the head fitted.
  return width + 1 <= max ? [`${head}…`, width + 1] : [`${head.slice(0, end)}…`, endWidth + 1];
}

/**
 * The text as lines of at most `max` columns (max ≥ 1): broken at whitespace where it can be (the
 * whitespace at a break is dropped, as cli-table3's word wrap did), words wider than a line broken
 * between graphemes. Linear in the text's length.
 */
export function wrapText(text: string, max: number): string[] {
  const lines: string[] = [];
  let line = '';
  let lineWidth = 0;
  const parts = text.split(/(\s+)/);
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i]!;
    const space = i > 0 ? parts[i - 1]! : '';
    const wordWidth = measure(word);
    if (lineWidth > 0 && lineWidth + space.length + wordWidth <= max) {
      line += space + word;
      lineWidth += space.length + wordWidth;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    lineWidth = 0;
    if (wordWidth <= max) {
      line = word;
      lineWidth = wordWidth;
      continue;
    }
    // A word wider than a line: whole lines of it, the rest starts the next line.
    for (const [segment, w] of graphemes(word)) {
      if (lineWidth + w > max && lineWidth > 0) {
        lines.push(line);
        line = '';
        lineWidth = 0;
      }
      line += segment;
      lineWidth += w;
    }
  }
  if (line !== '' || lines.length === 0) lines.push(line);
  return lines;
}

/** Columns of a whole word (wrapText measures every word once; words are not capped). */
function measure(word: string): number {
  if (PRINTABLE_ASCII.test(word)) return word.length;
  let width = 0;
  for (const [, w] of graphemes(word)) width += w;
  return width;
}
