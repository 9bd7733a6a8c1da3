// @ts-check
// Bundles src/ into one CommonJS file, dist/cli.cjs, that bin/booking.js requires, and each of the big
// dependencies that only some runs use into a file of its own under dist/vendor/ (see VENDOR). Then
// writes, from the same command tree as the help, the man pages (man/) and the completion scripts
// (completions/); none of it is committed.
//
// Every `await import()` in src/ becomes a require inside the bundle, made when the run gets there:
// undici, cli-table3, conf… are evaluated only by the commands that use them. One file rather than
// esbuild's ES module chunks: node resolves, reads and links each ES module apart, and a `bookings
// get` would load ~45 of them (docs/performance.md). Minified: less to read at every start
// (BUILD_READABLE=1 keeps the names, for profiling).
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { writeTreeFiles } from './tree-files.mjs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

// Dependencies that few runs load and that are big for what they do, each bundled whole into
// dist/vendor/<file>.cjs and required from there: in the program's bundle they would be read (and
// node's compile cache checked against them) at every start. undici is only for a run through a proxy
// (src/http/client.ts), conf (with ajv) for the commands that write the config, the prompt for login.
const VENDOR = { undici: 'undici', conf: 'conf', '@inquirer/password': 'inquirer-password' };

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20.18',
  minify: !process.env.BUILD_READABLE,
  legalComments: 'none',
  logLevel: 'warning',
};

/** @type {import('esbuild').Plugin} */
const vendorFiles = {
  name: 'vendor-files',
  setup(b) {
    b.onResolve({ filter: /^(undici|conf|@inquirer\/password)$/ }, (args) => ({
      path: `./vendor/${VENDOR[/** @type {keyof typeof VENDOR} */ (args.path)]}.cjs`,
      external: true,
    }));
  },
};

rmSync(new URL('../dist/', import.meta.url), { recursive: true, force: true });
mkdirSync(new URL('../dist/vendor/', import.meta.url), { recursive: true });
// Each file's module.exports is what node's import() of the package gives as its default export (src/
// takes only that): conf and the prompt are ES modules with a default export; undici is CommonJS.
for (const [name, file] of Object.entries(VENDOR)) {
  const exports = name === 'undici' ? `require(${JSON.stringify(name)})` : `require(${JSON.stringify(name)}).default`;
  await build({
    ...common,
    stdin: { contents: `module.exports = ${exports};`, resolveDir: fileURLToPath(new URL('..', import.meta.url)) },
    outfile: `dist/vendor/${file}.cjs`,
  });
}
await build({
  ...common,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/cli.cjs',
  // The bundle's own file: URL, for the code that finds files beside itself (keyring-child.cjs, jq-wasm).
  define: { __VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__bundleUrl' },
  banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
  // jq-wasm (for --jq) is ~1 MB of WebAssembly its package finds next to itself, and @napi-rs/keyring a
  // native binding loaded by the keyring child: both are required from node_modules when used.
  external: ['jq-wasm', '@napi-rs/keyring'],
  plugins: [vendorFiles],
});
// The keyring runs in a child process (src/config/keyring-process.ts), which starts this file.
copyFileSync(new URL('../src/config/keyring-child.cjs', import.meta.url), new URL('../dist/keyring-child.cjs', import.meta.url));
await writeTreeFiles(pkg.version);
