// `webhook send --set PATH=VALUE`: one field of a JSON payload overridden. PATH is dot-separated keys
// (a number indexes an array); VALUE is JSON when it parses as JSON (`true`, `3`, `{"name":"X"}`,
// `"123"` for a string of digits), else the text as a string (`cancelled`). Every step but the last
// must exist, so a misspelt path is an error rather than a new field nobody reads; the last key may be
// new, to add a field.
import { UsageError } from '../../errors';
import { visible } from '../../webhook/text';

export interface SetField {
  /** As the user wrote it, for messages. */
  text: string;
  path: string[];
  value: unknown;
}

/** Parses one --set argument; a missing `=` or an empty key is a usage error. */
export function parseSet(text: string): SetField {
  const eq = text.indexOf('=');
  const bad = (why: string) => new UsageError(`--set "${visible(text)}": ${why}`);
  if (eq < 0) throw bad('expected PATH=VALUE, such as data.booking.status=cancelled.');
  const path = text.slice(0, eq).split('.');
  if (path.some((k) => k.trim() === ''))
    throw bad('the path has an empty key (keys are separated by single dots, as in data.booking.status).');
  return { text, path, value: parseValue(text.slice(eq + 1)) };
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Sets each field in `payload` (a parsed JSON value), in order; a path that does not lead anywhere is a usage error. */
export function applySets(payload: unknown, sets: SetField[]): void {
  for (const set of sets) applySet(payload, set);
}

function applySet(payload: unknown, set: SetField): void {
  const bad = (why: string) => new UsageError(`--set "${visible(set.text)}": ${why}`);
  let node: unknown = payload;
  for (let i = 0; i < set.path.length; i++) {
    const key = set.path[i]!;
    const where = set.path.slice(0, i).join('.') || 'the payload';
    const last = i === set.path.length - 1;
    if (Array.isArray(node)) {
      const index = /^\d+$/.test(key) ? Number(key) : NaN;
      if (!(index < node.length)) throw bad(`${where} is a list of ${node.length}: "${visible(key)}" is not an index in it.`);
      if (last) node[index] = set.value;
      else node = node[index];
    } else if (node !== null && typeof node === 'object') {
      const obj = node as Record<string, unknown>;
      // Defined rather than assigned: `__proto__` is then a field like any other, not the prototype.
      if (last) Object.defineProperty(obj, key, { value: set.value, enumerable: true, writable: true, configurable: true });
      else if (!Object.hasOwn(obj, key)) throw bad(`${where} has no "${visible(key)}" (it has: ${keyList(obj)}).`);
      else node = obj[key];
    } else {
      throw bad(`${where} is ${describe(node)}, not an object with fields.`);
    }
  }
}

function keyList(obj: Record<string, unknown>): string {
  const keys = Object.keys(obj);
  if (keys.length === 0) return 'no fields';
  const shown = keys.slice(0, 12).map(visible).join(', ');
  return keys.length > 12 ? `${shown}, …` : shown;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'string') return 'a string';
  return `a ${typeof value}`;
}

/** The payload of a body to change with --set: it must be JSON. */
export function parsePayload(body: Buffer, from: string): unknown {
  try {
    return JSON.parse(body.toString('utf8'));
  } catch (err) {
    throw new UsageError(`--set needs a JSON body, and ${from} is not JSON: ${(err as Error).message}.`);
  }
}
