// node:assert as undici uses it: `assert(value, message)`, nothing else (build.mjs checks each call
// site's module, not the calls; `grep -rhoE "assert(\.[a-zA-Z]+)?\(" node_modules/undici/lib` shows
// only plain calls). Loading node:assert costs ~2 ms of start-up for checks that never fail; when one
// does, the real module throws its usual AssertionError.
'use strict';

module.exports = function assert(value, message) {
  if (!value) require('node:assert')(value, message);
};
