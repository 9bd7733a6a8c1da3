// The bundle's entry (build.mjs): the program, and the parser compile that bin/booking.js starts early;
// and, for the build only, the facts of the command tree and its man pages (scripts/command-facts.mjs),
// required when asked.
'use strict';

module.exports = {
  main: require('../../src/main.ts').main,
  precompileParser: require('./llhttp.cjs').precompile,
  commandFacts: () => require('../../src/command-facts.ts').programFacts(),
  manPages: (version) => require('../../src/man.ts').manPages(require('../../src/command-facts.ts').wholeProgram(), version),
};
