// A bundle of each command, besides the whole program's dist/cli.cjs.
//
// A run reads, and V8 deserialises, the code of the bundle it loads; each run registers only the
// command its first two words name (src/commands/tree.ts), so the bundle of that command alone
// behaves alike and is smaller: `booking bookings get` reads ~320 KB instead of ~470 KB, and its code
// cache and the top level V8 runs shrink with it (~2-3 ms of its start-up). bin/booking.js picks
// dist/cli-bookings-get.cjs when the first two command words name one (dist/command-facts.json lists
// them, src/command-facts.ts), dist/cli-version.cjs when the first names a command of no group, and
// dist/cli.cjs for anything else: no word, a group alone, `help`, an alias or a typo, which register a
// whole level of the tree.
//
// The bundle of `bookings get` is the program built with src/commands/register.ts keeping its
// `bookings` line only, and the group's file that line imports (src/commands/bookings/index.ts)
// keeping its `get` line only. Every command's code is reached only through its line's import(), so
// no other command is bundled. In those files every import() must be on a line of its own in that
// form: the build fails on one that is not.

import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';

// `  name: () => import('./x/y').then((m) => m.value),`: the name plain, quoted, or computed ([…],
// as the hidden __complete's, which bin/booking.js does not read as a command word).
const ENTRY = /^ +(?:([a-z][a-z0-9-]*)|'([a-z][a-z0-9-]*)'|\[[\w.[\]]+\]): \(\) => import\('([./\w-]+)'\)\.then\(\(m\) => m\.\w+\),$/;

/** The lines of `text` that import a command or group, with each one's name (undefined when computed) and path. */
export function commandEntries(text, file = 'the file') {
  const lines = text.split('\n');
  const entries = [];
  for (const line of lines) {
    if (!line.includes('import(') || /^\s*(\/\/|\/?\*)/.test(line)) continue; // none, or a comment
    const m = ENTRY.exec(line);
    if (!m) throw new Error(`command-bundles: cannot read this line of ${file}: ${line.trim()}`);
    entries.push({ name: m[1] ?? m[2], path: m[3], line });
  }
  if (entries.length === 0) throw new Error(`command-bundles: no command lines found in ${file}`);
  return entries;
}

/** `text` with the command lines other than `name`'s taken out; its line, to follow. */
export function keepOnly(text, name, file = 'the file') {
  const entries = commandEntries(text, file);
  const kept = entries.filter((e) => e.name === name);
  if (kept.length !== 1) throw new Error(`command-bundles: ${file} has ${kept.length} lines for "${name}"`);
  const drop = new Set(entries.filter((e) => e !== kept[0]).map((e) => e.line));
  return {
    text: text
      .split('\n')
      .filter((line) => !drop.has(line))
      .join('\n'),
    kept: kept[0],
  };
}

/**
 * The esbuild plugin that makes the bundle of the command at `path` (["bookings", "get"], or
 * ["version"]): register.ts keeps path[0]'s line, and the group's file it imports, path[1]'s.
 */
export function oneCommand(path) {
  return {
    name: 'one-command',
    setup(b) {
      let group; // the group's file, once register.ts has been read
      b.onLoad({ filter: /[\\/]src[\\/]commands[\\/](register|[\w-]+[\\/]index)\.ts$/ }, async (args) => {
        const text = await readFile(args.path, 'utf8');
        if (/[\\/]register\.ts$/.test(args.path)) {
          const { text: kept, kept: line } = keepOnly(text, path[0], 'src/commands/register.ts');
          if (path.length > 1) group = `${join(dirname(args.path), line.path)}.ts`;
          return { contents: kept, loader: 'ts' };
        }
        if (path.length > 1 && args.path === group) return { contents: keepOnly(text, path[1], args.path).text, loader: 'ts' };
        return undefined;
      });
    },
  };
}

/** dist/ file name of the bundle of the command at `path` (words): cli-bookings-get.cjs. */
export const bundleFile = (path) => `cli-${path.join('-')}.cjs`;
