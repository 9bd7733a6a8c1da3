// @ts-check
// package.json's "man": the pages the build writes to man/, one per command. npm links the pages a
// package's "man" lists for `npm link`, `npm install -g .` and a tarball's install alike (it ignores
// directories.man for a folder or a tarball). The list follows the command tree: after adding,
// renaming or removing a command (test/in-process/man-pages.test.ts says when), run
//   npm run build && node scripts/man-list.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package.json', import.meta.url);
const pkg = JSON.parse(readFileSync(file, 'utf8'));
pkg.man = readdirSync(new URL('../man/', import.meta.url))
  .filter((f) => /\.\d$/.test(f))
  .sort()
  .map((f) => `./man/${f}`);
if (pkg.man.length === 0) throw new Error('man/ holds no pages: run the build first');
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
