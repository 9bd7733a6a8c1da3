// The one text-safety module: every human-facing line escapes control, C1 and bidi characters the
// same way, and JSON output writes them as \uXXXX.
import { describe, expect, it } from 'vitest';
import { escapeControl, escapeJsonText, escapeOneLine } from '../../src/output/escape';
import { escapeOneLine as fromFailures, errorForStatus } from '../../src/http/failures';
import { jsonText, visible } from '../../src/webhook/text';
import { rawText } from '../../src/output/cells';
import { csvField } from '../../src/output/csv';
import { items } from '../helpers/output-kit';

const UNSAFE = [
  '\x1b',
  '\x07',
  '\n',
  '\r',
  '\t',
  '\x7f',
  '\x85',
  '\x9b',
  '\u061c',
  '\u200e',
  '\u200f',
  '\u2028',
  '\u2029',
  '\u202a',
  '\u202e',
  '\u2066',
  '\u2069',
];
const RAW = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

describe('one escaper', () => {
  it('lines: every unsafe character shown as an escape, the same in every module', () => {
    for (const ch of UNSAFE) {
      const text = `a${ch}b`;
      expect(escapeControl(text), JSON.stringify(ch)).not.toMatch(RAW);
      expect(visible(text)).toBe(escapeControl(text));
      expect(fromFailures(text)).toBe(escapeControl(text));
    }
    expect(escapeControl('\u200f\u061c\x9b')).toBe('\\u200f\\u061c\\x9b');
  });
  it('a server message with U+200F and U+061C reaches the error line escaped', () => {
    const err = errorForStatus({
      method: 'GET',
      url: new URL('http://127.0.0.1/api/v1/me'),
      status: 400,
      body: Buffer.from('{"message":"bad \u200f\u061c name"}'),
      retries: 0,
    });
    expect(err.message).toBe('GET /api/v1/me: 400 Bad Request: bad \\u200f\\u061c name');
  });
  it('one line: trimmed and capped', () => {
    expect(escapeOneLine(`  ${'x'.repeat(300)}  `, 10)).toBe(`${'x'.repeat(9)}…`);
  });
  it('JSON: C1 and bidi as \\uXXXX, the value unchanged', () => {
    const value = { v: '\u202e\x9b\u200f' };
    const text = jsonText(value, false);
    expect(text).toBe('{"v":"\\u202e\\u009b\\u200f"}\n');
    expect(JSON.parse(text)).toEqual(value);
    expect(escapeJsonText(JSON.stringify(value))).toBe(text.trimEnd());
  });
});

describe('a nested value in a tsv or csv field', () => {
  it('is JSON a script can parse, with C1, DEL and bidi characters as \\u escapes; a text keeps the terminal escapes', () => {
    const nested = items(`[{"attendee":{"name":"C1:\\u0085|\\u009b31m|DEL\\u007f|\\u202e"}}]`)[0] as { attendee: unknown };
    for (const field of [rawText(nested.attendee), csvField(nested.attendee, false)]) {
      const json = field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
      expect(JSON.parse(json)).toEqual({ name: 'C1:\u0085|\u009b31m|DEL\u007f|\u202e' });
      expect(field).not.toMatch(/[\u007f-\u009f\u202e]/);
    }
    expect(rawText('C1:\u0085')).toBe('C1:\\x85');
  });
});

describe('--jq output', () => {
  const value = { uid: 'bk\u202e\x85\x1b]0;t\x07', n: [1, { a: {} }] };
  it('JSON text carries C1 and bidi characters as \\uXXXX; indented on a terminal, compact in a pipe', async () => {
    const { jqResultText } = await import('../../src/output/jq-text');
    const compact = JSON.stringify(value);
    expect(jqResultText(`${compact}\n`, false)).toBe(`${escapeJsonText(compact)}\n`);
    expect(jqResultText(`${compact}\n`, true)).toBe(`${escapeJsonText(JSON.stringify(value, null, 2))}\n`);
    expect(jqResultText(`${compact}\n`, false).trimEnd()).not.toMatch(RAW);
  });
  it('raw strings are byte-exact for a pipe (the door escapes them on a terminal)', async () => {
    const { jqResultText } = await import('../../src/output/jq-text');
    expect(jqResultText(`${JSON.stringify(value.uid)}\n`, false)).toBe(`${value.uid}\n`);
  });
  it("raw strings reach a terminal escaped, even the colour and line-erase codes booking's own lines use", async () => {
    const { jqResultText } = await import('../../src/output/jq-text');
    const text = jqResultText(`${JSON.stringify('a\x1b[31mR\x1b[0m\r\x1b[2Kb\nc')}\n`, true);
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    expect(text).toContain('\n');
  });
});
