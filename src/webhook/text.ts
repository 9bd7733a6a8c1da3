// Small text helpers for webhook output: header values and file names come from outside and must not
// reach the terminal raw, and colour is two ANSI codes (not worth loading chalk for).

// C0, DEL, C1, line/paragraph separators and bidi controls.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;
const UNSAFE_ONE = new RegExp(UNSAFE.source);
const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One line of text with control and bidi characters shown as escapes. */
export function visible(text: string): string {
  if (!UNSAFE_ONE.test(text)) return text;
  return text.replace(UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return NAMED[ch] ?? (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
  });
}

export interface Paint {
  good(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
}

export const ansi = (open: number, close: number) => (text: string) => `\x1b[${open}m${text}\x1b[${close}m`;

export function paint(color: boolean): Paint {
  if (!color) return { good: (t) => t, bad: (t) => t, dim: (t) => t };
  return { good: ansi(32, 39), bad: ansi(31, 39), dim: ansi(2, 22) };
}

/** Compact JSON line, or two-space pretty JSON (the contract's `-o json`). */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${JSON.stringify(value, null, pretty ? 2 : undefined)}\n`;
}
