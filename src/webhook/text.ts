// Small text helpers for webhook output: header values and file names come from outside and must not
// reach the terminal raw, and colour is two ANSI codes (not worth loading chalk for).

import { escapeControl, escapeJsonText } from '../output/escape';

/** One line of text with control and bidi characters shown as escapes (the one text-safety module). */
export const visible = escapeControl;

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

/** Compact JSON line, or two-space pretty JSON (the contract's `-o json`); C1 and bidi as \uXXXX. */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${escapeJsonText(JSON.stringify(value, null, pretty ? 2 : undefined))}\n`;
}
