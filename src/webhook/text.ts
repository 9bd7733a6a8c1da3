// Small text helpers for webhook output: header values and file names come from outside and must not
// reach the terminal raw, and colour is two ANSI codes (not worth loading chalk for).

import { escapeControl } from '../output/escape';
import { jsonText as outputJson } from '../json';

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

/** Compact JSON line, or two-space pretty JSON (the contract's `-o json`), as every command writes it. */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${outputJson(value, pretty ? 2 : 0)}\n`;
}
