// JSON text with bigints written as bare numbers of exact digits (JSON.stringify throws on bigint, and a
// Number would round 9007199254740993 to ...992). The CLI must keep those digits; the sandbox must send them.

// JSON.stringify escapes U+0000 as \u0000, and no sandbox string holds one, so the marker cannot clash.
const MARK = '\u0000bigint:';
const MARKED = /"\\u0000bigint:(-?\d+)"/g;

const replacer = (_key: string, value: unknown) => (typeof value === 'bigint' ? `${MARK}${value}` : value);

/** JSON.stringify, with bigints as exact numbers. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value, replacer).replace(MARKED, '$1');
}

/**
 * A copy with bigints turned into marker strings, for code that stringifies by itself (payload.ts's
 * deliveryBody); pass its output through restoreBigInts.
 */
export function markBigInts<T>(value: T): T {
  return JSON.parse(JSON.stringify(value, replacer)) as T;
}

export function restoreBigInts(text: string): string {
  return text.replace(MARKED, '$1');
}
