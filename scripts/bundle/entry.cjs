// The bundle's entry (build.mjs): the program, and the parser compile that bin/booking.js starts early;
// and, for the build only, the facts of the command tree (scripts/command-facts.mjs), required when asked.
'use strict';

module.exports = {
  main: require('../../src/main.ts').main,
  precompileParser: require('./llhttp.cjs').precompile,
  commandFacts: () => require('../../src/command-facts.ts').programFacts(),
};
