// JSON output of a value that holds a long string (a megabyte or more, decoded from a body's bytes by
// src/output/json-pieces.ts), without its whole text: JSON.stringify of a 63 MiB string value, its
// escape, the numbers' unmarking and the write's own UTF-8 copy were each one more copy of it (issue
// 32). Here the value's text around its long strings is made as jsonText makes it, and each long
// string is written in slices of SLICE characters, each escaped as JSON.stringify escapes it. The
// bytes are those of jsonText/jsonLine.
//
// The key mask (src/output/door.ts) masks each write; a key cut in two by a slice's edge would pass
// it, so a long string is masked whole first (ctx.io.mask), then sliced. A value is written to its
// end once begun (whole lines, as every writer leaves them), waiting for a slow reader between slices.
import { escapeJsonText } from './escape';
import { isLosslessNumber, jsonText } from './json';
import { longStringsRead } from './json-pieces';
import { drained, emit, type OutputContext } from './sink';

const SLICE = 64 * 1024;
const LONG = 1024 * 1024;

/** Whether values are to be checked for long strings: only a run that has read one has any. */
export const mayHoldLongStrings = (): boolean => longStringsRead() > 0;

/** A long string in a value's parts: written in slices. */
class Long {
  constructor(readonly value: string) {}
}

/** The containers of `value` that hold a string of `long` characters or more (at any depth); empty when none does. */
function holders(value: unknown, long: number, found = new Set<object>()): Set<object> {
  const holds = (v: unknown): boolean => {
    if (typeof v === 'string') return v.length >= long;
    if (typeof v !== 'object' || v === null || isLosslessNumber(v)) return false;
    let any = false;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (holds(child)) any = true;
    if (any) found.add(v);
    return any;
  };
  holds(value);
  return found;
}

/** Whether `value` is or holds a string of LONG characters or more. */
export function holdsLongString(value: unknown, long = LONG): boolean {
  return typeof value === 'string' ? value.length >= long : holders(value, long).size > 0;
}

/**
 * `prefix`, then `value` as jsonText(value, indent) writes it with each of its lines but the first
 * indented by `pad` (the json list writer's elements), then `end`. `sizes`: a test's small strings.
 */
export async function writeJsonInSlices(
  ctx: OutputContext,
  value: unknown,
  indent: number,
  pad: string,
  prefix: string,
  end: string,
  { long, slice } = { long: LONG, slice: SLICE },
): Promise<void> {
  const parts: (string | Long)[] = [prefix];
  const holding = holders(value, long);
  const step = ' '.repeat(indent);
  const add = (v: unknown, at: string): void => {
    if (typeof v === 'string' && v.length >= long) {
      parts.push(new Long(v));
      return;
    }
    if (typeof v !== 'object' || v === null || !holding.has(v)) {
      // Nothing long inside: jsonText's own text, indented to its depth.
      const text = jsonText(v, indent);
      parts.push(at === '' ? text : text.replace(/\n/g, `\n${at}`));
      return;
    }
    const inner = at + step;
    const open = indent > 0 ? `\n${inner}` : '';
    const array = Array.isArray(v);
    // JSON.stringify's choices: an object's own keys in order, those whose value is undefined left out.
    const entries: [string | undefined, unknown][] = array
      ? v.map((x) => [undefined, x])
      : Object.keys(v)
          .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
          .map((k) => [k, (v as Record<string, unknown>)[k]]);
    parts.push(array ? '[' : '{');
    entries.forEach(([key, x], i) => {
      const name = key === undefined ? '' : `${escapeJsonText(JSON.stringify(key))}${indent > 0 ? ': ' : ':'}`;
      parts.push(`${i > 0 ? ',' : ''}${open}${name}`);
      add(x, inner);
    });
    parts.push(`${indent > 0 ? `\n${at}` : ''}${array ? ']' : '}'}`);
  };
  add(value, pad);
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    const masked = ctx.io.mask(part.value);
    text += '"';
    for (let at = 0; at < masked.length; ) {
      let to = Math.min(masked.length, at + slice);
      // A surrogate pair stays whole: halves apart would each be written as a lone \uXXXX.
      const last = masked.charCodeAt(to - 1);
      if (to < masked.length && last >= 0xd800 && last <= 0xdbff) to--;
      text += escapeJsonText(JSON.stringify(masked.slice(at, to)).slice(1, -1));
      emit(ctx, text);
      text = '';
      at = to;
      await drained(ctx);
    }
    text += '"';
  }
  emit(ctx, text + end);
}
