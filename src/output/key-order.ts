// The keys of an object parsed in pieces (src/output/json-pieces.ts), in Object.keys order, kept as
// the parse made them: Object.keys or for-in of a million keys is itself a stretch of a second, deaf
// to Ctrl-C (a dictionary's keys are sorted by insertion each time), and the writer
// (json-slices.ts), the columns a list's own fields make (columns.ts) and a key looked up loosely
// (paths.ts) all read them. Only for objects nobody has changed since (a parsed body is read only).
const keyLists = new WeakMap<object, string[]>();

export function keepKeys(value: object, keys: string[]): void {
  keyLists.set(value, keys);
}

export const keysInOrder = (value: object): string[] | undefined => keyLists.get(value);
