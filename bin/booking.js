#!/usr/bin/env node
// Entry point: runs the CLI and maps the outcome to the process exit code. The only place that exits.
//
// CommonJS (bin/package.json), because node starts a CommonJS file faster than an ES module. Start-up
// is most of what a short command costs, so:
// - `booking --version` is answered here, without loading the program;
// - the program, dist/cli.cjs, is compiled through vm.Script with a V8 code cache kept per command
//   in the user's cache folder (bin/code-cache.js; node 20 has no compile cache for ES modules);
// - V8 flags and the HTTP parser's compile are set up for short runs (below).
'use strict';

// Ctrl-C is honoured from the first millisecond: the handler is in place before anything loads (a
// signal that arrives while the program loads is handled as soon as it has, instead of killing the
// process). The command is asked to stop through the AbortSignal and ends with whole lines written.
const controller = new AbortController();
let interrupted = false;
const onSignal = (signal) => {
  // A second Ctrl-C (or a command slow to stop) ends the process at once.
  if (interrupted) return exitWhenWritten(130);
  interrupted = true;
  controller.abort(new Error(signal));
  setTimeout(() => exitWhenWritten(130), 3000).unref();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// Whether process.stderr has been made yet (watchStderr).
let stderrMade = false;

const argv = process.argv.slice(2);

// `booking --version` alone is answered here, before the program loads.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  writeStdout(`${require('../package.json').version}\n`);
} else {
  run();
}

function run() {
  // What the build read off the command tree (src/command-facts.ts): the global options that take a
  // value (their values are not command words) and the commands that send requests, as typed.
  const facts = readCommandFacts();
  const valueOptions = new Set(facts.valueOptions);

  /** ["bookings", "get"] for `booking -o json bookings get bk_1`: the code cache is per command. */
  const words = commandWords(argv, valueOptions);
  const command = words.join('-') || 'program';
  // The commands that send requests, and so parse responses with undici's llhttp (WebAssembly): named
  // by their first word (`api`), or by two (`bookings get`).
  const sendsRequests = facts.sendsRequests.includes(words[0]) || facts.sendsRequests.includes(words.slice(0, 2).join(' '));
  // The bundle of the command the words name, which holds no other command; the whole program's for
  // anything else (scripts/bundle/command-bundles.mjs).
  const named = [words.slice(0, 2), words.slice(0, 1)].find((w) => w.length > 0 && facts.bundles.includes(w.join(' ')));
  const bundle = named ? `cli-${named.join('-')}.cjs` : 'cli.cjs';

  // Before the program is compiled (the flags are part of what a code cache is checked against, node's
  // own caches of its modules too: bin/code-cache.js loads the ones the command needs before setting them):
  // - WebAssembly (llhttp) is compiled by V8's baseline compiler only: otherwise V8 optimises it in
  //   the background after the first response, and exiting waits for that (~60 ms);
  // - a command that sends requests compiles the whole parser up front, on a background thread
  //   (precompileParser below), rather than function by function on the main thread as it first runs;
  //   one thread only: on a small machine more compile threads take the cores the main thread needs
  //   while it loads the program (~0.6 ms of a `bookings get` on 2 cores);
  // - no scavenges scheduled as tasks: a short run would spend ~1 ms collecting young objects it is
  //   about to drop by exiting; a long one still collects them, when they fill the young generation;
  // - a young generation that keeps its first size: V8 doubles it (up to 32 MB) each time enough has
  //   survived its collections, which a long listing always gets to, so peak memory would grow with
  //   the length of the list (~70 MB at 20,000 bookings, ~105 MB at 300,000) instead of staying flat.
  const flags = `--liftoff-only --no-minor-gc-task --semi-space-growth-factor=1${sendsRequests ? ' --no-wasm-lazy-compilation --wasm-num-compilation-tasks=1' : ''}`;

  // stdout is made before the flags are set (below): node's modules behind it (net, tty, fs's stream
  // for a file) then load from node's code cache. Every run writes to it.
  process.stdout.on('error', onStreamError('stdout'));
  // stderr is made on first use: a pipe or terminal costs up to ~2 ms to set up, and a run that succeeds
  // quietly never writes to it. Its error handler is in place from the moment it exists.
  watchStderr();

  // saveCodeCache, called after a successful run, leaves or updates the code cache for the next run
  // of the same command. The flags are set in there, once node's modules the command needs are loaded (see there).
  const {
    exports: { main, precompileParser },
    saveCodeCache,
  } = require('./code-cache.js').loadProgram(bundle, command, () => require('node:v8').setFlagsFromString(flags));
  if (sendsRequests) precompileParser();

  let settled = false;
  // The words: the program loads and builds only the command they name (src/commands/tree.ts).
  main(argv, { signal: controller.signal, words }).then((code) => {
    settled = true;
    if (code === 0 && !interrupted) saveCodeCache?.();
    // The command's own code, even after Ctrl-C: sandbox and webhook listen stop on it with exit 0.
    exitWhenWritten(code);
  });
  // Nothing left to wait on, yet the command has not finished: node would exit 0, which a script takes
  // for success (a verdict never given, a body never read). That is a bug; say so and fail.
  // Checked on the next turn: another 'beforeExit' listener (the prompt's, for Ctrl-D) may settle it.
  process.on('beforeExit', () =>
    setImmediate(() => {
      if (settled) return;
      process.stderr.write('error: the command stopped before it finished (a bug in booking; please report it)\n');
      exitWhenWritten(1);
    }),
  );
}

// Writing into a closed pipe (`booking ... | head -1`) ends quietly. Any other failed write (a full
// disk, /dev/full, EIO) is one line on stderr where it can still be written, and exit 1: never exit 0
// with cut output, never a stack.
function onStreamError(name) {
  return (err) => {
    if (err && err.code === 'EPIPE') process.exit(interrupted ? 130 : 0);
    if (name === 'stdout') writeFailed(name, err);
    process.exit(1);
  };
}

/**
 * Exits once stdout and stderr hold nothing unwritten. Writes to a pipe are synchronous only while
 * the pipe has room: a reader slower than us leaves the rest queued in memory, and exiting then
 * would cut the output short. A reader that goes away ends the wait through onStreamError.
 */
function exitWhenWritten(code) {
  let pending = 0;
  for (const stream of stderrMade ? [process.stdout, process.stderr] : [process.stdout]) {
    // A write that failed just now (to a file: synchronously) has not yet emitted its 'error'.
    if (stream.errored) return onStreamError(stream === process.stdout ? 'stdout' : 'stderr')(stream.errored);
    if (stream.writableLength > 0) {
      pending++;
      stream.write('', () => --pending === 0 && process.exit(code));
    }
  }
  if (pending === 0) process.exit(code);
}

/** process.stderr, made by node's own getter on first use, gets our error handler as it is made. */
function watchStderr() {
  const own = Object.getOwnPropertyDescriptor(process, 'stderr');
  if (!own || typeof own.get !== 'function' || !own.configurable) {
    stderrMade = true;
    process.stderr.on('error', onStreamError('stderr'));
    return;
  }
  Object.defineProperty(process, 'stderr', {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const stream = own.get.call(process);
      if (!stderrMade) {
        stderrMade = true;
        stream.on('error', onStreamError('stderr'));
      }
      return stream;
    },
  });
}

/** Writes without creating process.stdout (which costs more than the rest of --version). */
function writeStdout(text) {
  try {
    require('node:fs').writeSync(1, text);
  } catch (err) {
    if (err.code === 'EAGAIN') process.stdout.write(text);
    else if (err.code !== 'EPIPE') {
      writeFailed('stdout', err);
      process.exitCode = 1;
    }
  }
}

/** "error: cannot write to stdout: no space left on device (ENOSPC)" on stderr, if stderr can take it. */
function writeFailed(name, err) {
  const code = err && typeof err.code === 'string' ? err.code : 'EIO';
  const texts = { ENOSPC: 'no space left on device', EIO: 'input/output error', EDQUOT: 'disk quota exceeded', EFBIG: 'file too large' };
  try {
    require('node:fs').writeSync(2, `error: cannot write to ${name}: ${texts[code] ? `${texts[code]} (${code})` : code}\n`);
  } catch {}
}

/** dist/command-facts.json; nothing known when it is missing (not built: loadProgram says so). */
function readCommandFacts() {
  try {
    return JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'dist', 'command-facts.json'), 'utf8'));
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    return { valueOptions: [], sendsRequests: [], bundles: [] };
  }
}

/** The first two command words of argv, global options and their values skipped. */
function commandWords(args, valueOptions) {
  const words = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(arg)) break;
    words.push(arg);
  }
  return words;
}
