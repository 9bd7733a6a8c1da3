// The bundle's entry (build.mjs): the program, and the parser compile that bin/booking.js starts early.
'use strict';

module.exports = { main: require('../../src/main.ts').main, precompileParser: require('./llhttp.cjs').precompile };
