// The one text-safety module: every human-facing line (tables, tsv, errors, hints, webhook verdicts
// and listen lines, sandbox output) goes through it. Text from a server or a file is hostile until
// shown otherwise: an ESC could recolour or retitle the user's terminal, a U+202E reorder what they
// read, a newline forge a tsv row or an error line. Lines show such characters as visible escapes;
// JSON output writes the ones JSON.stringify would leave raw as \uXXXX (the value is unchanged).

// The one class of unsafe characters, in its three pieces: C0 but tab and newline (which multi-line
// text and a terminal keep); then tab and newline; then DEL, C1, the line/paragraph separators, and
// the bidi marks, embeddings, overrides and isolates: what lossless-json (like JSON.stringify) writes
// raw, as it escapes C0 itself.
const C0_BUT_LINES = '\\u0000-\\u0008\\u000b-\\u001f';
const LINES = '\\t\\n';
const ABOVE_C0 = '\\u007f-\\u009f\\u061c\\u200e\\u200f\\u2028\\u2029\\u202a-\\u202e\\u2066-\\u2069';

const UNSAFE = new RegExp(`[${C0_BUT_LINES}${LINES}${ABOVE_C0}]`, 'g');
const JSON_RAW_UNSAFE = new RegExp(`[${ABOVE_C0}]`, 'g');
const UNSAFE_BUT_LINES = new RegExp(`[${C0_BUT_LINES}${ABOVE_C0}]`);
// What booking draws on a terminal itself, which gets through raw: the progress line's "\r ESC[2K",
// a CRLF line end (csv's, RFC 4180: a CR right before its LF moves nothing a reader could be fooled
// by), and the SGR codes style.ts draws (chalk at 16 colours: bold, dim, their reset, red…cyan, the
// colour reset, the full reset). Any other ESC (an OSC title, a cursor move, a blink a server slipped
// into a field) is escaped.
const TERMINAL_UNSAFE = new RegExp(`\\r\\x1b\\[2K|\\r\\n|\\x1b\\[(?:0|1|2|22|3[1-6]|39)?m|[${C0_BUT_LINES}${ABOVE_C0}]`, 'g');

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
 * Like escapeControl but keeps line breaks and tabs: for multi-line text bodies shown on a terminal,
 * and csv cells. A CRLF is a line break (a browser's text box sends its lines so; csv keeps it for a
 * spreadsheet to read); a CR alone is still escaped, as it would let a line overwrite itself.
 */
export function escapeControlKeepLines(text: string): string {
  return text.replace(UNSAFE, (ch: string, at: number) =>
    ch === '\n' || ch === '\t' || (ch === '\r' && text.charCodeAt(at + 1) === 0x0a) ? ch : visible(ch),
  );
}

/**
 * Text for a terminal (the door's escaper, src/output/door.ts): newlines, tabs and what booking
 * draws itself get through; every other unsafe character is shown as an escape.
 */
export function escapeForTerminal(text: string): string {
  // Most text has none but newlines: a test is cheaper than a replace that finds nothing.
  if (!UNSAFE_BUT_LINES.test(text)) return text;
  return text.replace(TERMINAL_UNSAFE, (m) => (m.length > 1 ? m : visible(m)));
}

/**
 * JSON text with DEL, C1, U+2028/2029 and bidi controls written as \uXXXX. They can only occur inside
 * string literals, so the escape never changes the value; it only keeps them off the terminal.
 */
export function escapeJsonText(json: string): string {
  return json.replace(JSON_RAW_UNSAFE, (ch) => `\\u${hex(ch.charCodeAt(0), 4)}`);
}
