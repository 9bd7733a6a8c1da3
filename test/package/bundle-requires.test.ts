// The bundle holds every dependency but the few that must be loaded from node_modules at run time:
// what dist/ requires is node's own modules and those few, which package.json's `dependencies` list
// (everything else is a devDependency, not installed with the package).
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';

const DIST = join(ROOT, 'dist');

/** Bare `require("x")` calls of the built files (code templates in strings, as ajv's, left out). */
function requiredModules(): Set<string> {
  const files = [
    'cli.cjs',
    ...readdirSync(join(DIST, 'vendor'))
      .filter((f) => f.endsWith('.cjs'))
      .map((f) => `vendor/${f}`),
  ];
  const names = new Set<string>();
  for (const file of files) {
    const code = readFileSync(join(DIST, file), 'latin1');
    for (const m of code.matchAll(/(^|[^'`\w$.])require\("([^".][^"]*)"\)/g)) names.add(m[2]!);
  }
  return names;
}

it('dist/ requires only node built-ins and the runtime dependencies', () => {
  const { dependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  // node: names are node's own, even those this node lacks (node:sqlite, required only where it exists).
  const external = [...requiredModules()].filter((name) => !name.startsWith('node:') && !isBuiltin(name));
  const packageOf = (name: string) =>
    name
      .split('/')
      .slice(0, name.startsWith('@') ? 2 : 1)
      .join('/');
  expect(external.filter((name) => !(packageOf(name) in dependencies))).toEqual([]);
  expect(external.map(packageOf)).toContain('jq-wasm');
});
