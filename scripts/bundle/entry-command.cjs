// The entry of a command's own bundle (build.mjs, bundle/command-bundles.mjs): the program, and the
// parser compile that bin/booking.js starts early.
'use strict';

module.exports = {
  main: require('../../src/main.ts').main,
  precompileParser: require('./llhttp.cjs').precompile,
};
