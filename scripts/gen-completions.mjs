#!/usr/bin/env node
// Regenerates completions/ from the commander program: `npm run gen:completions`.
// `--check` writes nothing and exits 1 when a committed file differs (stale) from what would be written.
//
// The generator is TypeScript under src/, so it is bundled in memory with esbuild (a dev dependency)
// and imported from a data: URL. Commands' lazy imports (undici, tables, conf...) stay unresolved:
// only the program's shape is read, no command runs.
import { build } from 'esbuild';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');

const lazyImportsExternal = {
  name: 'lazy-imports-external',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined));
  },
};

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
let stale = 0;
mkdirSync(dir, { recursive: true });
for (const { file, text } of completionFiles(await bookingProgram())) {
  const path = join(dir, file);
  let current = null;
  try {
    current = readFileSync(path, 'utf8');
  } catch {}
  if (current === text) continue;
  stale++;
  if (check) {
    console.error(`completions/${file} is stale: run npm run gen:completions`);
  } else {
    writeFileSync(path, text);
    console.error(`wrote completions/${file}`);
  }
}
if (check && stale > 0) process.exit(1);
if (!check && stale === 0) console.error('completions/ is up to date');
