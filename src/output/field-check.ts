// --fields (or --json FIELDS) naming a field that no item has is most likely a typo (`stauts`): a
// usage error (exit 2) listing the fields there are, before anything is printed, rather than a
// listing of empty cells. The API documents no schema, so "no item" means none of the first page:
// the check runs once, when the first items arrive (for get, the one record).
import { UsageError } from '../base/errors';
import { escapeControl, escapeJsonText } from './escape';
import { getPath, parsePath } from './paths';
import { isPlainObject } from '../base/plain-object';
import { fieldList, type OutputContext } from './sink';
import { isPlainValueField } from './columns';

const MAX_LISTED = 40;

export interface FieldCheck {
  /** Checks --fields against the first non-empty batch of items; later calls do nothing. */
  check(items: unknown[]): void;
}

export function fieldCheck(ctx: OutputContext): FieldCheck {
  const fields = fieldList(ctx);
  let done = !fields;
  return {
    check(items) {
      if (done || items.length === 0) return;
      done = true;
      const missing = fields!.filter(
        (f) => !isPlainValueField(f, items) && !items.some((item) => getPath(item, parsePath(f)) !== undefined),
      );
      if (missing.length === 0) return;
      const names = missing.map((f) => escapeJsonText(JSON.stringify(f))).join(', ');
      const available = availableFields(items);
      const list = available.length > MAX_LISTED ? `${available.slice(0, MAX_LISTED).join(', ')}, …` : available.join(', ');
      throw new UsageError(
        `no item has the field${missing.length === 1 ? '' : 's'} ${names}; available fields: ${list || '(none: the items are empty objects)'}.`,
      );
    },
  };
}

/** Top-level keys and, for nested objects (or lists of them), their keys as dot paths: `attendee.name`. */
function availableFields(items: unknown[]): string[] {
  const seen = new Set<string>();
  for (const item of items) {
    if (!isPlainObject(item)) {
      // The VALUE column of the values that are not objects (isPlainValueField).
      seen.add('value');
      continue;
    }
    for (const [key, value] of Object.entries(item)) {
      seen.add(key);
      const nested = Array.isArray(value) ? value.filter(isPlainObject) : isPlainObject(value) ? [value] : [];
      for (const obj of nested) for (const sub of Object.keys(obj)) seen.add(`${key}.${sub}`);
    }
  }
  return [...seen].map(escapeControl);
}
