// Writes completions/ (bash, zsh, fish) from the commander program; scripts/build.mjs calls it, so the
// scripts follow the command tree at every build and are not committed (completions/ is gitignored,
// and packed: package.json "files").
//
// The generator is TypeScript under src/, so it is bundled in memory with esbuild (a dev dependency)
// and imported from a data: URL; no command runs.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * The lazy imports of what commands use when they run (undici, tables, conf...): left out. Those of
 * the command tree's files (register.ts and the groups' index.ts) are the command files: kept.
 */
const TREE_FILE = /[\\/]src[\\/]commands[\\/](register|[^\\/]+[\\/]index)\.ts$/;
const lazyImportsExternal = {
  name: 'lazy-imports-external',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' && !TREE_FILE.test(args.importer) ? { path: args.path, external: true } : undefined,
    );
  },
};

/** Writes the three files that differ from what the program generates now; returns their names. */
export async function writeCompletions() {
  const result = await build({
    stdin: {
      contents:
        "export { wholeProgram as bookingProgram } from './src/command-facts'; export { completionFiles } from './src/completion/generate';",
      resolveDir: root,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    // CommonJS dependencies require() node builtins; a data: URL has no path, so anchor at the repo.
    banner: {
      js: `import { createRequire as __cr } from 'node:module'; const require = __cr(${JSON.stringify(join(root, 'package.json'))});`,
    },
    plugins: [lazyImportsExternal],
    logLevel: 'warning',
  });
  const code = result.outputFiles[0].text;
  const { bookingProgram, completionFiles } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  const dir = join(root, 'completions');
  mkdirSync(dir, { recursive: true });
  const written = [];
  for (const { file, text } of completionFiles(await bookingProgram())) {
    let current = null;
    try {
      current = readFileSync(join(dir, file), 'utf8');
    } catch {}
    if (current === text) continue;
    writeFileSync(join(dir, file), text);
    written.push(file);
  }
  return written;
}
