// The one text-safety module: every human-facing line (tables, tsv, errors, hints, webhook verdicts
// and listen lines, sandbox output) goes through it. Text from a server or a file is hostile until
// shown otherwise: an ESC could recolour or retitle the user's terminal, a U+202E reorder what they
// read, a newline forge a tsv row or an error line. Lines show such characters as visible escapes;
// JSON output writes the ones JSON.stringify would leave raw as \uXXXX (the value is unchanged).

// C0, DEL, C1, the line/paragraph separators, and the bidi marks, embeddings, overrides and isolates.
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
// What lossless-json (like JSON.stringify) writes raw: everything above except C0, which it escapes.
const JSON_RAW_UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const NAMED: Record<string, string> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

function hex(code: number, digits: number): string {
  return code.toString(16).padStart(digits, '0');
}

function visible(ch: string): string {
  const named = NAMED[ch];
  if (named) return named;
  const code = ch.charCodeAt(0);
  return code < 0x100 ? `\\x${hex(code, 2)}` : `\\u${hex(code, 4)}`;
}

const UNSAFE_ONE = new RegExp(UNSAFE.source);

/** One line of text with every control or bidi character shown as an escape (`\x1b`, `\n`, `\u202e`). */
export function escapeControl(text: string): string {
  // Most text has none: a test is cheaper than a replace that finds nothing.
  return UNSAFE_ONE.test(text) ? text.replace(UNSAFE, visible) : text;
}

/** For a message: trimmed, escaped like escapeControl, and at most `max` characters (cut with …). */
export function escapeOneLine(text: string, max = 200): string {
  const escaped = escapeControl(text.trim());
  if (escaped.length <= max) return escaped;
  const chars = Array.from(escaped);
  return chars.length <= max ? escaped : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * Like escapeControl but keeps newlines and tabs: for multi-line text bodies shown on a terminal.
 * A CR is still escaped, as it would let a line overwrite itself.
 */
export function escapeControlKeepLines(text: string): string {
  return text.replace(UNSAFE, (ch) => (ch === '\n' || ch === '\t' ? ch : visible(ch)));
}

/**
 * JSON text with DEL, C1, U+2028/2029 and bidi controls written as \uXXXX. They can only occur inside
 * string literals, so the escape never changes the value; it only keeps them off the terminal.
 */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_RAW_UNSAFE, (ch) => `\\u${hex(ch.charCodeAt(0), 4)}`);
}
