// Bundles src/ into CommonJS files that bin/booking.js compiles with a V8 code cache (node 20 has no
// compile cache of its own for ES modules): dist/cli.cjs, the whole program, and dist/cli-<words>.cjs,
// each command's own (scripts/bundle/command-bundles.mjs). What a command does not use is
// still not run at start: every `await import()` in src becomes a lazy require inside the bundle,
// so undici, cli-table3, conf... are evaluated only by the commands that import them.
//
// Each file starts with `// booking-cli build <hash of the code of them all>`: the cache is keyed by
// it, because V8 checks a cache against the length of the source only.
//
// Minified: less to read at every start (BUILD_READABLE=1 keeps the names, for profiling).
//
// `undici` resolves to scripts/bundle/undici.cjs: the parts of undici that src/ uses, not its whole
// index (see that file), and undici's `assert` to scripts/bundle/assert.cjs. A few dependencies are
// loaded more lazily than their authors wrote (every rewrite in LAZY is checked, and the build fails
// if the text it matches has changed):
// - undici's HTTP/1 client requires its HTTP/2 client at load, which loads node:http2, tls and
//   crypto (~10 ms); HTTP/2 is only ever used after an ALPN "h2" answer, which needs allowH2 (off),
//   so it is left out, as is fetch's body code, which undici loads only for a FormData body;
// - undici loads node:http (~7 ms) for one default and one class check, and its SOCKS5 agent and
//   llhttp's constant tables for what only some runs use;
// - undici's lazyllhttp() takes the parser compiled ahead by scripts/bundle/llhttp.cjs;
// - undici builds a search tree of ~100 header names at load (~1 ms) to look up a few names per
//   response: the table of the same names it also builds answers those lookups;
// - commander requires node:child_process at load (with net and dgram, ~3 ms) for executable
//   subcommands, which this program has none of;
// - undici's symbols, errors and util export objects of 25-71 properties are made with a null
//   prototype, so that V8 builds them as dictionaries, not a map per property (~0.5 ms).
// The namespace objects of the modules src/ loads with import() are built by those modules' init
// functions, not at the top of the bundle at every start (scripts/bundle/lazy-namespaces.mjs).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { commandFacts, writeCommandFacts, writeManPages } from './command-facts.mjs';
import { lazyNamespaces } from './bundle/lazy-namespaces.mjs';
import { bundleFile, oneCommand } from './bundle/command-bundles.mjs';
import { writeCompletions } from './gen-completions.mjs';

const undiciParts = {
  name: 'undici-parts',
  setup(b) {
    const parts = fileURLToPath(new URL('bundle/undici.cjs', import.meta.url));
    const assert = fileURLToPath(new URL('bundle/assert.cjs', import.meta.url));
    b.onResolve({ filter: /^undici$/ }, () => ({ path: parts }));
    b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      /[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: assert } : undefined,
    );
  },
};

/** client-h1.js's use of llhttp's constants (TYPE and ERROR only), as an object literal. */
function llhttpConstants() {
  const constants = createRequire(import.meta.url)('undici/lib/llhttp/constants.js');
  const source = readFileSync(createRequire(import.meta.url).resolve('undici/lib/dispatcher/client-h1.js'), 'utf8');
  const used = new Set(source.match(/\bconstants\.[A-Z_]+/g).map((m) => m.slice('constants.'.length)));
  if ([...used].some((name) => name !== 'TYPE' && name !== 'ERROR'))
    throw new Error(`client-h1.js reads llhttp constants ${[...used].join(', ')}: update scripts/build.mjs`);
  return JSON.stringify({ TYPE: constants.TYPE, ERROR: constants.ERROR });
}

// undici keeps llhttp's WebAssembly as base64 strings in JavaScript (70 KB each, SIMD and not): in
// the bundle they would be read, copied into the code cache and decoded at every start. They go to
// dist/vendor/ as the binary files they are, read when a parser is first needed.
const WASM = { llhttp_simd: 'undici/lib/llhttp/llhttp_simd-wasm.js', llhttp: 'undici/lib/llhttp/llhttp-wasm.js' };

/** An expression reading dist/vendor/<name>.wasm (`__dirname` is dist/ in the bundle's wrapper). */
function wasmFile(name) {
  return `require('node:fs').readFileSync(require('node:path').join(__dirname, 'vendor', ${JSON.stringify(`${name}.wasm`)}))`;
}

// undici's symbols, errors and util export one object literal each, of 71, 25 and 46 properties,
// built at every start. V8 gives an ordinary literal a map per property (~10K instructions each); one
// with a null prototype is made a dictionary at once (symbols.js: 0.97M instructions -> 0.26M). Every
// other module reads them once at its start (destructuring), or calls a util function through the
// object; nothing asks them for a method of Object.prototype. ~1.4M instructions of a bookings get.
const NULL_PROTOTYPE_EXPORTS = ['\nmodule.exports = {\n', '\nmodule.exports = {\n  __proto__: null,\n'];

// Each file's rewrites: [text that must be there, its replacement].
const LAZY = [
  [
    /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
    [
      // Not bundled at all (~10 KB in every bundle): undici offers HTTP/2 in its TLS handshake only with
      // allowH2, which src/ never sets, so no server can answer "h2".
      [
        "const connectH2 = require('./client-h2.js')",
        "const connectH2 = () => { throw new Error('HTTP/2 was negotiated, though booking never offers it (allowH2 is off)') }",
      ],
      ["const http = require('node:http')\n", ''],
      // The same check, made when a client is created rather than when the module loads.
      [
        'const getDefaultNodeMaxHeaderSize = http &&\n  http.maxHeaderSize &&\n  Number.isInteger(http.maxHeaderSize) &&\n  http.maxHeaderSize > 0\n  ? () => http.maxHeaderSize\n  : () => {',
        "const getDefaultNodeMaxHeaderSize = () => {\n  const { maxHeaderSize } = require('node:http')\n  if (Number.isInteger(maxHeaderSize) && maxHeaderSize > 0) return maxHeaderSize\n ",
      ],
    ],
  ],
  [
    /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client-h1\.js$/,
    [
      // The two tables it reads, rather than llhttp's whole constants module built at every start.
      ["const constants = require('../llhttp/constants.js')", `const constants = ${llhttpConstants()}`],
      [
        "mod = new WebAssembly.Module(require('../llhttp/llhttp_simd-wasm.js'))",
        `mod = require(${JSON.stringify(fileURLToPath(new URL('bundle/llhttp.cjs', import.meta.url)))}).take() ?? new WebAssembly.Module(${wasmFile('llhttp_simd')})`,
      ],
      // The parser's WebAssembly as binary files in dist/vendor/ (see WASM), not base64 in the source.
      ["process.env.JEST_WORKER_ID ? require('../llhttp/llhttp-wasm.js') : undefined", 'undefined'],
      // fetch's body machinery (~40 KB in every bundle: WebIDL, FormData, data: URLs) serves only a
      // FormData request body, which src/ never sends (its requests are GETs without a body).
      [
        "extractBody = require('../web/fetch/body.js').extractBody",
        "extractBody = () => { throw new Error('booking sends no FormData bodies') }",
      ],
      ["llhttpWasmData || require('../llhttp/llhttp-wasm.js')", wasmFile('llhttp')],
    ],
  ],
  [
    /[\\/]undici[\\/]lib[\\/]core[\\/]util\.js$/,
    [
      // A dictionary from the start (NULL_PROTOTYPE_EXPORTS, above).
      NULL_PROTOTYPE_EXPORTS,
      ["const { IncomingMessage } = require('node:http')\n", ''],
      ['constructor === IncomingMessage', "constructor === require('node:http').IncomingMessage"],
      // Header names: the same strings from the table constants.js has already built, instead of a
      // search tree of them built at every start (~1 ms) to look up a few names per response.
      ["const { tree } = require('./tree')\n", ''],
      ["    : tree.lookup(value) ?? value.toString('latin1').toLowerCase()", '    : bufferToLowerCasedHeaderName(value)'],
      [
        "  return tree.lookup(value) ?? value.toString('latin1').toLowerCase()",
        "  const name = value.toString('latin1')\n  return headerNameLowerCasedRecord[name] ?? name.toLowerCase()",
      ],
    ],
  ],
  [/[\\/]undici[\\/]lib[\\/]core[\\/](symbols|errors)\.js$/, [NULL_PROTOTYPE_EXPORTS]],
  [
    /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]proxy-agent\.js$/,
    [
      ["const Socks5ProxyAgent = require('./socks5-proxy-agent')\n", ''],
      ['new Socks5ProxyAgent(', "new (require('./socks5-proxy-agent'))("],
    ],
  ],
  [
    /[\\/]commander[\\/]lib[\\/]command\.js$/,
    [
      [
        "const childProcess = require('node:child_process');",
        "const childProcess = { spawn: (...args) => require('node:child_process').spawn(...args) };",
      ],
    ],
  ],
];

const lazyRequires = {
  name: 'lazy-requires',
  setup(b) {
    for (const [filter, rewrites] of LAZY) {
      b.onLoad({ filter }, async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const [from, to] of rewrites) {
          if (!source.includes(from))
            throw new Error(`${args.path}: expected \`${from}\` (the dependency changed; update scripts/build.mjs)`);
          source = source.replace(from, to);
        }
        return { contents: source, loader: 'js' };
      });
    }
  },
};

// Dependencies only a few commands use, and big for what they do (conf brings ajv: ~200 KB of the
// bundle), are bundled into files of their own under dist/vendor/ and required from there when used:
// every run would otherwise read them, and V8 copy them, at start. Each is a leaf (it imports none of
// src/), so nothing is duplicated between the two bundles.
const VENDOR = { conf: 'conf', '@inquirer/password': 'inquirer-password' };

const vendorFiles = {
  name: 'vendor-files',
  setup(b) {
    const names = Object.keys(VENDOR).map((n) => n.replace(/[/@]/g, '\\$&'));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({ path: args.path, namespace: 'vendor' }));
    b.onLoad({ filter: /.*/, namespace: 'vendor' }, (args) => ({
      // __dirname is dist/: bin/booking.js passes it to the bundle's wrapper.
      contents: `module.exports = require(require('node:path').join(__dirname, 'vendor', ${JSON.stringify(`${VENDOR[args.path]}.cjs`)}));`,
      loader: 'js',
    }));
  },
};

async function buildVendor(name, file) {
  await build({
    // Its default export as module.exports: src/ takes only `default` from each of these.
    stdin: {
      contents: `module.exports = require(${JSON.stringify(name)}).default;`,
      resolveDir: fileURLToPath(new URL('..', import.meta.url)),
    },
    outfile: `dist/vendor/${file}.cjs`,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    minify: !process.env.BUILD_READABLE,
    legalComments: 'none',
    logLevel: 'error',
  });
}

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const dist = new URL('../dist/', import.meta.url);

/** One bundle's code (not yet wrapped): the program from `entry`, with `plugins` besides the common ones. */
async function bundleCode(entry, plugins = []) {
  const result = await build({
    entryPoints: [entry],
    write: false,
    outfile: 'dist/cli.cjs',
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node20.18',
    // BUILD_READABLE keeps the names (for a profile that names functions); whitespace and syntax are
    // still minified, which scripts/bundle/lazy-namespaces.mjs reads.
    ...(process.env.BUILD_READABLE ? { minifyWhitespace: true, minifySyntax: true } : { minify: true }),
    sourcemap: false,
    legalComments: 'none',
    // import() of a bundled module is a lazy require in CommonJS anyway; this makes the few of node's
    // own modules (node:https...) one too, since the code is compiled by vm.Script, not by node's loader.
    supported: { 'dynamic-import': false },
    // bin/booking.js passes the bundle's own file: URL as __bundle.url, made when first read (most
    // runs never read it, and making it compiles node's URL code: ~0.3 ms).
    define: { __VERSION__: JSON.stringify(pkg.version), 'import.meta.url': '__bundle.url' },
    plugins: [undiciParts, lazyRequires, vendorFiles, ...plugins],
    // jq (for --jq) is ~1 MB of WebAssembly its package finds next to itself: required from
    // node_modules when first used, never bundled or read by other runs.
    // @napi-rs/keyring is a native binding: never bundled, loaded from node_modules by the keyring
    // child (src/config/keyring-child.cjs, copied beside the bundle), and only by runs that read or
    // write a key in the keyring.
    external: ['jq-wasm', '@napi-rs/keyring'],
    logLevel: 'warning',
  });
  const bytes = result.outputFiles[0].contents;
  // bin/booking.js reads the bundle as latin1; esbuild's default charset escapes everything else.
  if (bytes.some((byte) => byte > 0x7f)) throw new Error('the bundle is not pure ASCII (bin/booking.js reads it as latin1)');
  return lazyNamespaces(Buffer.from(bytes).toString('latin1')).code;
}

// Wrapped here, as node wraps a CommonJS module, so that bin/booking.js compiles the file's text as it
// is: wrapping it there would make V8 copy the whole source once more at every start.
function writeBundle(file, code, id) {
  const head = `// booking-cli build ${id}\n(function (exports, require, module, __filename, __dirname, __bundle) {`;
  writeFileSync(new URL(file, dist), Buffer.concat([Buffer.from(head), Buffer.from(code, 'latin1'), Buffer.from('\n})\n')]));
}

// The whole program (dist/cli.cjs), then the bundle of each command the facts of its command tree
// name (scripts/bundle/command-bundles.mjs).
rmSync(dist, { recursive: true, force: true });
mkdirSync(dist);
for (const [name, file] of Object.entries(VENDOR)) await buildVendor(name, file);
copyFileSync(new URL('../src/config/keyring-child.cjs', import.meta.url), new URL('keyring-child.cjs', dist));
for (const [name, module] of Object.entries(WASM))
  writeFileSync(new URL(`vendor/${name}.wasm`, dist), createRequire(import.meta.url)(module));
const bundles = [{ file: 'cli.cjs', code: await bundleCode('scripts/bundle/entry.cjs') }];
// Written once to read the facts from (they come from the bundle, loaded as bin/booking.js loads it),
// and again below with the build id, which hashes every bundle.
writeBundle('cli.cjs', bundles[0].code, 'unfinished');
const facts = await commandFacts(dist);
for (const words of facts.bundles.map((command) => command.split(' ')))
  bundles.push({ file: bundleFile(words), code: await bundleCode('scripts/bundle/entry-command.cjs', [oneCommand(words)]) });
// One build id for them all, the hash of every bundle's code: a code cache is named by it and the
// command, and a run's cache write removes those of other builds (bin/booking.js).
const hash = createHash('sha256');
for (const { code } of bundles) hash.update(code, 'latin1');
const id = hash.digest('hex').slice(0, 16);
for (const { file, code } of bundles) writeBundle(file, code, id);
// What bin/booking.js reads before it loads the program: which options take values, which commands
// send requests, which have a bundle of their own.
writeCommandFacts(dist, facts);
// man/booking.1, man/booking-bookings-list.1…: from the same command tree as the help. The folder is
// not committed; npm packs it ("files"), and scripts/pack-man.mjs lists its pages for npm while it packs.
await writeManPages(dist, new URL('../man/', import.meta.url), pkg.version);
// completions/booking.bash, _booking, booking.fish: likewise from the tree, not committed.
await writeCompletions();
