// `webhook send --set PATH=VALUE`: one field of a JSON payload overridden, in the body's own bytes.
// PATH is dot-separated keys (a number indexes an array); VALUE is JSON when it parses as JSON (`true`,
// `3`, `{"name":"X"}`, `"123"` for a string of digits), else the text as a string (`cancelled`). Every
// step but the last must exist, so a misspelt path is an error rather than a new field nobody reads;
// the last key may be new, to add a field.
// The edit is a splice: the value's bytes are replaced by VALUE's text (a new key is inserted after
// the object's last member), and every other byte stays as it was. Parsing the body and writing it
// back would change what nobody asked to change (12345678901234567890123, 1.50, -0, 1e400, spacing).
import { UsageError } from '../../../base/errors';
import { visible } from '../../../webhook/text';
import { memberSpans, skipValue, skipWs } from './json-scan';

export interface SetField {
  /** As the user wrote it, for messages. */
  text: string;
  path: string[];
  /** The JSON text to put there, exactly as given (a 20-digit id keeps its digits). */
  json: string;
}

/** Parses one --set argument; a missing `=` or an empty key is a usage error. */
export function parseSet(text: string): SetField {
  const eq = text.indexOf('=');
  const bad = (why: string) => new UsageError(`--set "${visible(text)}": ${why}`);
  if (eq < 0) throw bad('expected PATH=VALUE, such as data.booking.status=cancelled.');
  const path = text.slice(0, eq).split('.');
  if (path.some((k) => k.trim() === ''))
    throw bad('the path has an empty key (keys are separated by single dots, as in data.booking.status).');
  return { text, path, json: valueText(text.slice(eq + 1)) };
}

function valueText(raw: string): string {
  try {
    JSON.parse(raw);
    return raw.trim();
  } catch {
    return JSON.stringify(raw);
  }
}

/** The body with each field set, in order; a path that does not lead anywhere is a usage error. */
export function applySets(body: Buffer, sets: SetField[]): Buffer {
  let out = body;
  for (const set of sets) out = applySet(out, set);
  return out;
}

function applySet(body: Buffer, set: SetField): Buffer {
  const bad = (why: string) => new UsageError(`--set "${visible(set.text)}": ${why}`);
  let at = skipWs(body, 0);
  for (let i = 0; i < set.path.length; i++) {
    const key = set.path[i]!;
    const where = set.path.slice(0, i).join('.') || 'the payload';
    const last = i === set.path.length - 1;
    const open = body[at];
    if (open === 0x5b) {
      const items = memberSpans(body, at).members;
      const index = /^\d+$/.test(key) ? Number(key) : NaN;
      if (!(index < items.length)) throw bad(`${where} is a list of ${items.length}: "${visible(key)}" is not an index in it.`);
      at = items[index]!.value;
    } else if (open === 0x7b) {
      const { members } = memberSpans(body, at);
      // The last of duplicate keys is the one JSON.parse (and so the receiver) reads.
      const found = members.findLast((m) => m.key === key);
      if (found) at = found.value;
      else if (!last) throw bad(`${where} has no "${visible(key)}" (it has: ${keyList(members.map((m) => m.key!))}).`);
      else {
        const pair = `${JSON.stringify(key)}:${set.json}`;
        const after = members.length ? members[members.length - 1]!.end : at + 1;
        return splice(body, after, after, members.length ? `,${pair}` : pair);
      }
    } else {
      throw bad(`${where} is ${describe(body[at])}, not an object with fields.`);
    }
    if (last) return splice(body, at, skipValue(body, at), set.json);
  }
  return body;
}

function splice(body: Buffer, from: number, to: number, text: string): Buffer {
  return Buffer.concat([body.subarray(0, from), Buffer.from(text, 'utf8'), body.subarray(to)]);
}

function keyList(keys: string[]): string {
  if (keys.length === 0) return 'no fields';
  const shown = keys.slice(0, 12).map(visible).join(', ');
  return keys.length > 12 ? `${shown}, …` : shown;
}

function describe(first: number | undefined): string {
  if (first === 0x22) return 'a string';
  if (first === 0x6e) return 'null';
  if (first === 0x74 || first === 0x66) return 'a boolean';
  return 'a number';
}

/** A body to change with --set must be JSON: checked once, so the splicing scanner can trust it. */
export function checkPayload(body: Buffer, from: string): void {
  try {
    JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new UsageError(`--set needs a JSON body, and ${from} is not JSON: ${(err as Error).message}.`);
  }
}
