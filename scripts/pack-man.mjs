// @ts-check
// package.json's "man" list, only while npm packs: `prepack` writes it from man/ (which the build
// has just written from the command tree), `postpack` takes it out again. npm installs the pages a
// package's "man" lists and ignores directories.man when it installs a tarball or a folder, but a
// list kept in the committed file would change with every command added. (directories.man stays,
// for `npm publish`, which reads package.json again after postpack and expands it.)
//   node scripts/pack-man.mjs add | remove
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const file = new URL('../package.json', import.meta.url);
const pkg = JSON.parse(readFileSync(file, 'utf8'));
if (process.argv[2] === 'add') {
  pkg.man = readdirSync(new URL('../man/', import.meta.url))
    .filter((f) => /\.\d$/.test(f))
    .sort()
    .map((f) => `./man/${f}`);
  if (pkg.man.length === 0) throw new Error('man/ holds no pages: run the build first');
} else if (process.argv[2] === 'remove') {
  delete pkg.man;
} else {
  throw new Error('usage: node scripts/pack-man.mjs add|remove');
}
writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
