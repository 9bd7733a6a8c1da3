// @ts-check
// Writes the files that follow the command tree, from the same program as the help: the man pages
// (man/booking.1, man/booking-bookings-list.1…; src/man.ts) and the completion scripts
// (completions/: bash, zsh, fish; src/completion/generate.ts). Neither is committed: npm packs them
// (package.json "files"; its "man" lists the pages: scripts/man-list.mjs).
//
// The generators are TypeScript under src/, so they are bundled in memory with esbuild and imported
// from a data: URL; no command runs.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * What commands import when they run (undici, tables, conf…) is left out; the command tree's own files
 * (register.ts and the groups' index.ts) load the command files, which are kept.
 * @type {import('esbuild').Plugin}
 */
const lazyImportsExternal = {
  name: 'lazy-imports-external',
  setup(b) {
    const treeFile = /[\\/]src[\\/]commands[\\/](register|[^\\/]+[\\/]index)\.ts$/;
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && !treeFile.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** The program with every command, and the two generators. */
async function generators() {
  const result = await build({
    stdin: {
      contents: [
        "export { wholeProgram } from './src/command-tree';",
        "export { completionFiles } from './src/completion/generate';",
        "export { manPages } from './src/man';",
      ].join('\n'),
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    // CommonJS dependencies require() node's modules; a data: URL has no path, so anchor at the repo.
    banner: {
      js: `import { createRequire as __cr } from 'node:module'; const require = __cr(${JSON.stringify(join(root, 'package.json'))});`,
    },
    plugins: [lazyImportsExternal],
    logLevel: 'warning',
  });
  return import(`data:text/javascript;base64,${Buffer.from(result.outputFiles[0].text).toString('base64')}`);
}

/** @param {string} version */
export async function writeTreeFiles(version) {
  const { wholeProgram, completionFiles, manPages } = await generators();
  const program = await wholeProgram();
  // Made afresh, so that a removed command leaves no page behind.
  const man = join(root, 'man');
  rmSync(man, { recursive: true, force: true });
  mkdirSync(man, { recursive: true });
  for (const { file, text } of manPages(program, version)) writeFileSync(join(man, file), text);
  // Rewritten only where they differ (an open shell may be sourcing them).
  const completions = join(root, 'completions');
  mkdirSync(completions, { recursive: true });
  for (const { file, text } of completionFiles(program)) {
    let current = null;
    try {
      current = readFileSync(join(completions, file), 'utf8');
    } catch {}
    if (current !== text) writeFileSync(join(completions, file), text);
  }
}
