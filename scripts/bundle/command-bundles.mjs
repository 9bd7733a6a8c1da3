// A bundle of each top-level command, besides the whole program's dist/cli.cjs.
//
// A run reads, and V8 deserialises, the code of the bundle it loads; each run registers only the
// top-level command its first word names (src/commands/tree.ts), so the bundle of that command alone
// behaves alike and is smaller: `booking bookings get` reads ~350 KB instead of ~470 KB, and its code
// cache and the top level V8 runs shrink with it (~1.5 ms of its start-up). bin/booking.js picks
// dist/cli-<word>.cjs when the first command word has one (dist/command-facts.json lists them), and
// dist/cli.cjs for anything else: no word, `help`, an alias or a typo, which register every command.
//
// The bundle of `bookings` is the program built with src/commands/register.ts's TREE holding the
// `bookings` line only: every command's code is reached only through its line's import(), so the
// others are not bundled. The build fails on a TREE line this cannot read.

const REGISTER = /[\\/]src[\\/]commands[\\/]register\.ts$/;
const OPEN = '\nconst TREE: Tree = {\n';
const CLOSE = '\n};\n';
// `  name: () => import('./x/y').then((m) => m.value),`: the name plain, quoted, or computed ([…]:
// no bundle of its own, as for the hidden __complete, whose word bin/booking.js does not read).
const ENTRY = /^ {2}(?:([a-z][a-z0-9-]*)|'([a-z][a-z0-9-]*)'|\[[\w.[\]]+\]): \(\) => import\('[./\w-]+'\)\.then\(\(m\) => m\.\w+\),$/;

/** TREE's lines in register.ts's text, with the name of each (undefined for a computed one). */
export function treeEntries(text) {
  const start = text.indexOf(OPEN);
  const end = start < 0 ? -1 : text.indexOf(CLOSE, start);
  if (end < 0) throw new Error('command-bundles: `const TREE: Tree = {` … `};` not found in src/commands/register.ts');
  const lines = text.slice(start + OPEN.length, end).split('\n');
  return {
    start: start + OPEN.length,
    end,
    entries: lines.map((line) => {
      const m = ENTRY.exec(line);
      if (!m) throw new Error(`command-bundles: cannot read this line of TREE in src/commands/register.ts: ${line.trim()}`);
      return { name: m[1] ?? m[2], line };
    }),
  };
}

/** register.ts's text with TREE holding `name`'s line only. */
export function keepOnly(text, name) {
  const { start, end, entries } = treeEntries(text);
  const kept = entries.filter((e) => e.name === name);
  if (kept.length !== 1) throw new Error(`command-bundles: TREE has ${kept.length} lines for "${name}"`);
  return text.slice(0, start) + kept[0].line + text.slice(end);
}

/** The esbuild plugin that makes the bundle of top-level command `name`. */
export function oneCommand(name) {
  return {
    name: 'one-command',
    setup(b) {
      b.onLoad({ filter: REGISTER }, async (args) => {
        const { readFile } = await import('node:fs/promises');
        return { contents: keepOnly(await readFile(args.path, 'utf8'), name), loader: 'ts' };
      });
    },
  };
}

/** dist/ file name of the bundle of top-level command `name`. */
export const bundleFile = (name) => `cli-${name}.cjs`;
