// The one test for "a JSON object" in data of unknown shape (response bodies, the config file): not
// null, not an array, and not one of lossless-json's numbers, which are objects in JavaScript but
// numbers in JSON (src/output/json.ts). The number is told by the marker lossless-json shares across its
// copies rather than by importing it: commands load this module at start-up, lossless-json only
// once they parse a response.
const LOSSLESS_NUMBER = Symbol.for('lossless-json.LosslessNumber');

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    (value as { [LOSSLESS_NUMBER]?: unknown })[LOSSLESS_NUMBER] !== true
  );
}

/**
 * target[key] = value as an own property whatever the key. Data of unknown shape may have a member
 * named "__proto__" (JSON.parse makes it an own property); assigned plainly it would set the
 * object's prototype instead, dropping the member (and letting the next write reach Object.prototype).
 */
export function setOwn(target: Record<string | number, unknown>, key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
