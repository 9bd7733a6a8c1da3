// The exact paths a user names for a list's shape (--items-path, --cursor-path, --cursor-from-last):
// dots between names, brackets for names with dots or for indexes. Unlike --fields' paths
// (src/output/paths.ts), a step matches only the name as written: a shape override must not guess.
import { UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';

const pathCache = new Map<string, string[]>();

/**
 * The steps of a path: dots between names, brackets for names with dots or for indexes:
 * `data.items`, `meta.0.next`, `["@odata.nextLink"]`, `links["next.page"]`, `items[0]`.
 */
function parsePath(path: string): string[] {
  const cached = pathCache.get(path);
  if (cached) return cached;
  const steps: string[] = [];
  const token = /\[\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'|(\d+))\s*\]|([^.[\]]+)/y;
  let at = 0;
  while (at < path.length) {
    token.lastIndex = at;
    const m = token.exec(path);
    if (!m)
      throw new UsageError(
        `cannot read the path ${JSON.stringify(path)} at character ${at + 1}: use dot.separated names, or ["a.b"] for a name with dots.`,
      );
    const quoted = m[1] ?? m[2];
    steps.push(quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (m[3] ?? m[4])!);
    at = token.lastIndex;
    if (path[at] === '.' && at + 1 < path.length && path[at + 1] !== '.') at++;
    else if (at < path.length && path[at] !== '[')
      throw new UsageError(
        `cannot read the path ${JSON.stringify(path)} at character ${at + 1}: use dot.separated names, or ["a.b"] for a name with dots.`,
      );
  }
  if (steps.length === 0) throw new UsageError('the path is empty.');
  pathCache.set(path, steps);
  return steps;
}

/** A usage error when `path` cannot be read (checked when it is saved: `config set itemsPath …`). */
export function checkExactPath(path: string): void {
  parsePath(path);
}

/** A path (see parsePath) into a parsed body; undefined when any step is missing. */
export function valueAt(body: unknown, path: string): unknown {
  let current: unknown = body;
  for (const step of parsePath(path)) {
    if (Array.isArray(current) && /^\d+$/.test(step)) current = current[Number(step)];
    else if (isPlainObject(current) && Object.hasOwn(current, step)) current = current[step];
    else return undefined;
  }
  return current;
}
