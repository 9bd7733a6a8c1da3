// The bundle's entry (build.mjs): the program, and the parser compile that bin/booking.js starts early;
// and, for the build only, the facts of the command tree and its man pages (scripts/command-facts.mjs),
// required when asked.
'use strict';

module.exports = {
  main: require('../../src/main.ts').main,
  precompileParser: require('./llhttp.cjs').precompile,
  commandFacts: async () => {
    const facts = require('../../src/command-facts.ts');
    return facts.programFacts(await facts.wholeProgram());
  },
  manPages: async (version) => require('../../src/man.ts').manPages(await require('../../src/command-facts.ts').wholeProgram(), version),
};
