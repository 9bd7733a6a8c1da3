// -o csv, as RFC 4180 writes it: a header row, then one record per item, fields separated by commas,
// records ended by CRLF; a field holding a comma, a quote or a line break is quoted, its quotes
// doubled. Values are what tsv would show (numbers with every digit, nested values as compact JSON,
// times as received or in the --tz zone), with two differences made for spreadsheets:
// - a line break inside a value (LF, or CRLF) stays a line break (quoted, as RFC 4180 allows): multi-line text
//   opens as one cell. Every other control or bidi character (a CR alone too) is shown escaped, as everywhere.
// - formula injection: a text cell that starts with `=`, `+`, `-` or `@` (or a tab or CR, which some
//   spreadsheets skip before looking) would run as a formula in Excel, LibreOffice or Sheets. It is
//   written with a leading `'`, the spreadsheet's own "this is text" mark, as OWASP advises; a JSON
//   number (-5) is a number, never guarded. `--csv-raw` writes every cell as received.
// Quoting is a few lines, and the writer must stream page by page through writeLines (stream.ts),
// which a csv library's own Transform would stand beside rather than replace: no dependency.
import { fieldText } from './json';
import { escapeControlKeepLines } from './escape';

const NEEDS_QUOTES = /[",\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field: text escaped for safety, guarded against formulas (unless raw), quoted when needed. */
export function csvField(value: unknown, raw: boolean): string {
  let text = fieldText(value, escapeControlKeepLines);
  if (!raw && typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record: its fields joined, ended as RFC 4180 ends a record. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.join(',')}\r\n`;
}

/** The header row: each column's name as a field (names come from the data: escaped, guarded and quoted alike). */
export function csvHeader(names: readonly string[], raw: boolean): string {
  return csvRecord(names.map((n) => csvField(n, raw)));
}
