// undici's HTTP parser (llhttp, WebAssembly), compiled ahead of need on V8's background threads.
// bin/booking.js starts the compile for the commands that send requests, while the main thread is
// still loading the program and the config; undici's lazyllhttp() (client-h1.js, rewritten by
// build.mjs) takes the module from here, and compiles its own as usual when there is none.
'use strict';

let compiled;
let pending;

exports.precompile = () => {
  // undici's own choice of build (client-h1.js): for anything unusual, leave the choice to it.
  if (process.env.UNDICI_NO_WASM_SIMD !== undefined || process.arch === 'ppc64') return;
  // __dirname is dist/ (bin/booking.js passes it to the bundle); scripts/build.mjs writes the file.
  pending = WebAssembly.compile(require('node:fs').readFileSync(require('node:path').join(__dirname, 'vendor', 'llhttp_simd.wasm'))).then(
    (module) => {
      compiled = module;
    },
    () => {},
  );
};

/** Settles when a compile started by precompile() is done (undefined when none was started). */
exports.pending = () => pending;

/** The compiled module, or undefined. */
exports.take = () => compiled;
