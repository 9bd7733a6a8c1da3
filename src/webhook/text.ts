// Small text helpers for webhook output: header values and file names come from outside and must not
// reach the terminal raw; colour and JSON text as every command draws them.

import { escapeControl } from '../output/escape';
import { jsonText as outputJson } from '../output/json';

/** One line of text with control and bidi characters shown as escapes (the one text-safety module). */
export const visible = escapeControl;

export { paint } from '../output/style';

/** Compact JSON line, or two-space pretty JSON (the contract's `-o json`), as every command writes it. */
export function jsonText(value: unknown, pretty: boolean): string {
  return `${outputJson(value, pretty ? 2 : 0)}\n`;
}
