// What a lossless parse gave, in a form two parses can be compared by: its text as jsonText writes it
// (numbers as received, key order) and every object's prototype, or that it failed.
import { jsonText } from '../../src/output/json';

export type Outcome = { text: string; protos: string } | { error: true };

/** Every object's prototype, in walk order: Object.prototype (o), none (n), or another (x). */
export function protos(value: unknown): string {
  if (typeof value !== 'object' || value === null) return '';
  const proto = Object.getPrototypeOf(value);
  const own = Array.isArray(value) ? 'a' : proto === Object.prototype ? 'o' : proto === null ? 'n' : 'x';
  return own + Object.values(value).map(protos).join('');
}

/** `parse()`'s value as an Outcome (pretty text and prototypes), or `{ error: true }` when it throws. */
export function outcome(parse: () => unknown): Outcome {
  try {
    const value = parse();
    return { text: jsonText(value, 2), protos: protos(value) };
  } catch {
    return { error: true };
  }
}
