// What --jq prints, from jq's compact results (one JSON value per line, as `jq -c` writes them):
// - a string result is printed raw, as `jq -r` and gh do: byte-exact into a pipe; on a terminal its
//   control and bidi characters are shown as escapes here, as every writer escapes server text (the
//   door lets booking's own colours and the progress line's erase through, so it cannot tell a
//   server's `ESC[31m` or `\r ESC[2K` in a string from ours);
// - any other result is JSON text with DEL, C1, U+2028/9 and bidi characters written as \uXXXX
//   (jq writes them raw), indented with two spaces on a terminal and compact in a pipe, as jq does.
// Kept apart from jq.ts, which runs the filter: this is the output side of it.
import { escapeControlKeepLines, escapeJsonText } from './escape';

/** The text to write for jq's `-c` stdout: one line per result, newline-terminated. */
export function jqResultText(compact: string, terminal: boolean): string {
  let text = '';
  for (const line of compact.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('"')) {
      const raw = JSON.parse(line) as string;
      text += `${terminal ? escapeControlKeepLines(raw) : raw}\n`;
    } else text += `${escapeJsonText(terminal ? indentJson(line) : line)}\n`;
  }
  return text;
}

/** Compact JSON text laid out as jq (and JSON.stringify(v, null, 2)) would indent it; values untouched. */
function indentJson(compact: string): string {
  let out = '';
  let depth = 0;
  let inString = false;
  const newline = () => `\n${'  '.repeat(depth)}`;
  for (let i = 0; i < compact.length; i++) {
    const ch = compact[i]!;
    if (inString) {
      out += ch;
      if (ch === '\\') out += compact[++i] ?? '';
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
      out += ch;
    } else if (ch === '{' || ch === '[') {
      const close = compact[i + 1];
      if (close === '}' || close === ']') {
        out += ch + close;
        i++;
      } else {
        depth++;
        out += ch + newline();
      }
    } else if (ch === '}' || ch === ']') {
      depth--;
      out += newline() + ch;
    } else if (ch === ',') out += `,${newline()}`;
    else if (ch === ':') out += ': ';
    else out += ch;
  }
  return out;
}
