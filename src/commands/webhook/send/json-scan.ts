// Where things are in a JSON text, by byte offset, for `send --set`'s splice (set.ts). The text
// has been checked to be JSON (JSON.parse) before, so these walk it without validating again. Loops,
// not recursion: a deeply nested body cannot overflow the stack.

import { stringEnd } from '../../../base/json-scan';

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

export function skipWs(text: Buffer, at: number): number {
  while (at < text.length && WS.has(text[at]!)) at++;
  return at;
}

/** The offset just past the string that starts (with its quote) at `at`. */
function skipString(text: Buffer, at: number): number {
  return Math.min(stringEnd(text, at) + 1, text.length);
}

/** The offset just past the value that starts at `at`. */
function skipValue(text: Buffer, at: number): number {
  const first = text[at];
  if (first === 0x22) return skipString(text, at);
  if (first !== 0x7b && first !== 0x5b) {
    // A number, true, false or null: up to the next delimiter.
    let i = at;
    while (i < text.length && !WS.has(text[i]!) && text[i] !== 0x2c && text[i] !== 0x7d && text[i] !== 0x5d) i++;
    return i;
  }
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (c === 0x22) i = skipString(text, i) - 1;
    else if (c === 0x7b || c === 0x5b) depth++;
    else if ((c === 0x7d || c === 0x5d) && --depth === 0) return i + 1;
  }
  return text.length;
}

export interface Member {
  /** An object member's key (decoded); undefined for an array item. */
  key?: string;
  /** Where its value starts and ends. */
  value: number;
  end: number;
}

/** The members of the object or array that starts at `at`, and the offset of its closing bracket. */
export function memberSpans(text: Buffer, at: number): { members: Member[]; close: number } {
  const isObject = text[at] === 0x7b;
  const members: Member[] = [];
  let i = skipWs(text, at + 1);
  while (i < text.length && text[i] !== 0x7d && text[i] !== 0x5d) {
    let key: string | undefined;
    if (isObject) {
      const keyEnd = skipString(text, i);
      key = JSON.parse(text.toString('utf8', i, keyEnd)) as string;
      i = skipWs(text, skipWs(text, keyEnd) + 1); // past the colon
    }
    const end = skipValue(text, i);
    members.push({ key, value: i, end });
    i = skipWs(text, end);
    if (text[i] === 0x2c) i = skipWs(text, i + 1);
  }
  return { members, close: i };
}
