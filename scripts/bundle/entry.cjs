// The entry of the whole program's bundle (build.mjs): what a command's own bundle has
// (entry-command.cjs) and, for the build only, the facts of the command tree and its man pages
// (scripts/command-facts.mjs), required when asked.
'use strict';

module.exports = {
  ...require('./entry-command.cjs'),
  commandFacts: async () => {
    const facts = require('../../src/command-facts.ts');
    return facts.programFacts(await facts.wholeProgram());
  },
  manPages: async (version) => require('../../src/man.ts').manPages(await require('../../src/command-facts.ts').wholeProgram(), version),
};
