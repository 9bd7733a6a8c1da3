// Lossless JSON: numbers keep their exact digits (12345678901234567890 stays so, 1.50 stays 1.50),
// strings their characters, objects their key order. Numbers are held as lossless-json's
// LosslessNumber, which stringify() writes back verbatim.
import { parse as losslessParse, stringify as losslessStringify, isLosslessNumber } from 'lossless-json';
import { escapeJsonText } from './output/escape';

export { isLosslessNumber };

// Whether this run has parsed any JSON with lossless-json: until it has, no value can hold a
// LosslessNumber, and the native JSON.stringify (several times faster) writes the same text.
let losslessSeen = false;

export function parseJson(text: string): unknown {
  losslessSeen = true;
  // Duplicate keys: the last one wins, as with JSON.parse (lossless-json throws by default).
  return losslessParse(text, undefined, { onDuplicateKey: ({ newValue }) => newValue });
}

/** Two-space pretty JSON (indent 2) or compact (indent 0), lossless. */
export function stringifyJson(value: unknown, indent = 0): string {
  if (!losslessSeen) return JSON.stringify(value, null, indent || undefined) ?? 'null';
  return losslessStringify(value, undefined, indent || undefined) ?? 'null';
}

/** JSON for output: lossless, with no raw control or bidi character left in it; pretty when indent is 2. */
export function jsonText(value: unknown, indent = 0): string {
  return escapeJsonText(stringifyJson(value, indent));
}

/** A JSON scalar as the plain text a table or tsv cell shows: numbers exactly as received. */
export function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (isLosslessNumber(value)) return (value as { value: string }).value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return stringifyJson(value);
}
