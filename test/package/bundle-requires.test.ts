// The bundle holds every dependency but the few that must be loaded from node_modules at run time:
// what dist/ requires is node's own modules and those few, which package.json's `dependencies` list
// (everything else is a devDependency, not installed with the package).
import { readdirSync, readFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';

const DIST = join(ROOT, 'dist');

/**
 * What the built files load from node_modules at run time: bare `require("x")` calls (code templates
 * in strings, as ajv's, left out) and the paths resolved with createRequire(…).resolve("x") (jq-wasm,
 * which the --jq worker thread requires by that path), and the modules imported by name. Every file
 * of dist/: the program's chunks and the keyring child (which requires @napi-rs/keyring).
 */
function requiredModules(): Set<string> {
  const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => /\.[cm]js$/.test(f));
  const names = new Set<string>();
  for (const file of files) {
    const code = readFileSync(join(DIST, file), 'latin1');
    for (const m of code.matchAll(/(^|[^'`\w$.])require\((["'])([^"'.][^"']*)\2\)/g)) names.add(m[3]!);
    for (const m of code.matchAll(/\)\.resolve\((["'])(@?[a-z][\w./:-]*)\1\)/g)) names.add(m[2]!);
    for (const m of code.matchAll(/(?:\bimport\(|\bfrom ?)(["'])(@?[a-z][\w./:-]*)\1/g)) names.add(m[2]!);
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
  expect(external.map(packageOf)).toEqual(expect.arrayContaining(['jq-wasm', '@napi-rs/keyring']));
});
