// @ts-check
// Bundles src/ into dist/cli.mjs, the ES module bin/booking.js imports, and the chunks esbuild splits
// off at each `await import()` in src/: a run loads only the code of the command it names. Then writes, from the same command tree as the
// help, the man pages (man/) and the completion scripts (completions/); none of it is committed.
//
// Minified: less to read at every start (BUILD_READABLE=1 keeps the names, for profiling).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { writeTreeFiles } from './tree-files.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
mkdirSync(new URL('../dist/', import.meta.url));
await build({
  entryPoints: { cli: 'src/main.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  // ES modules split at every import(): a run loads the program's core and the chunks of the one
  // command it names (src/commands/tree.ts), and undici, cli-table3, conf… only where they are used.
  format: 'esm',
  splitting: true,
  platform: 'node',
  target: 'node20.18',
  minify: !process.env.BUILD_READABLE,
  legalComments: 'none',
  define: { __VERSION__: JSON.stringify(pkg.version) },
  // The CommonJS dependencies bundled in (commander, undici…) require() node's modules.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // jq-wasm (for --jq) is ~1 MB of WebAssembly its package finds next to itself, and @napi-rs/keyring a
  // native binding loaded by the keyring child: both are required from node_modules when used.
  external: ['jq-wasm', '@napi-rs/keyring'],
  logLevel: 'warning',
});
// The keyring runs in a child process (src/config/keyring-process.ts), which starts this file.
copyFileSync(new URL('../src/config/keyring-child.cjs', import.meta.url), new URL('../dist/keyring-child.cjs', import.meta.url));
await writeTreeFiles(pkg.version);
