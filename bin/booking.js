#!/usr/bin/env node
// @ts-check
// The entry point: Ctrl-C handling, `--version`, node's compile cache, the run, and the exit. The only
// place that exits. The program is dist/cli.cjs, which scripts/build.mjs bundles from src/.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// Ctrl-C is honoured from the first millisecond: the handler is in place before the program loads.
// The command is asked to stop through the AbortSignal and ends with whole lines written; a second
// Ctrl-C, or a command slow to stop, ends the process at once.
const controller = new AbortController();
let interrupted = false;
/** @param {NodeJS.Signals} signal */
function onSignal(signal) {
  if (interrupted) return exitWhenWritten(130);
  interrupted = true;
  controller.abort(new Error(signal));
  setTimeout(() => exitWhenWritten(130), 3000).unref();
}
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

/** @type {Record<string, string>} */
const WRITE_ERRORS = { ENOSPC: 'no space left on device', EIO: 'input/output error', EDQUOT: 'disk quota exceeded' };

// Writing into a closed pipe (`booking … | head -1`) ends quietly. Any other failed write (a full disk,
// /dev/full) is one line on stderr where it can still be written, and exit 1: never exit 0 with cut
// output, never a stack.
/** @param {'stdout' | 'stderr'} name */
function onStreamError(name) {
  return (/** @type {NodeJS.ErrnoException} */ err) => {
    if (err.code === 'EPIPE') process.exit(interrupted ? 130 : 0);
    const code = err.code ?? 'EIO';
    const text = WRITE_ERRORS[code] ? `${WRITE_ERRORS[code]} (${code})` : code;
    try {
      if (name === 'stdout') fs.writeSync(2, `error: cannot write to stdout: ${text}\n`);
    } catch {}
    process.exit(1);
  };
}
process.stdout.on('error', onStreamError('stdout'));
process.stderr.on('error', onStreamError('stderr'));

/**
 * Exits once stdout and stderr hold nothing unwritten: a pipe to a slow reader keeps the rest queued
 * in memory, and exiting at once would cut the output short.
 * @param {number} code
 */
function exitWhenWritten(code) {
  let pending = 0;
  for (const stream of [process.stdout, process.stderr]) {
    // A write that failed just now (to a file: synchronously) has not yet emitted its 'error'.
    if (stream.errored) return onStreamError(stream === process.stdout ? 'stdout' : 'stderr')(stream.errored);
    if (stream.writableLength > 0) {
      pending++;
      stream.write('', () => --pending === 0 && process.exit(code));
    }
  }
  if (pending === 0) process.exit(code);
}

/**
 * Ends a run that is done by letting node's loop run empty, with `code`, rather than by process.exit():
 * on node 24 and 26 V8 compiles in the background (concurrent Sparkplug; node 20 and 22 do not), and a
 * process.exit() while such a compile waits for the main thread's garbage collection never returns
 * (nodejs/node#54918): `webhook listen` stopped after a burst of large deliveries hung so, about one
 * run in 30 on a loaded machine. Ending with its loop, node shuts V8 down in order, after the output
 * is written. A run that still holds something open is ended by exitWhenWritten after a moment.
 * @param {number} code
 */
function endWhenDone(code) {
  process.exitCode = code;
  setTimeout(() => exitWhenWritten(code), LINGER_MS).unref();
}
const LINGER_MS = 1000;

/** The program (with the compile cache on first, so that it covers it), or undefined if not built. */
function loadProgram() {
  const file = path.join(__dirname, '..', 'dist', 'cli.cjs');
  if (!fs.existsSync(file)) {
    process.stderr.write(`error: booking is not built: ${file} is missing; run \`npm run build\` in ${path.dirname(__dirname)}\n`);
    return undefined;
  }
  // Node 22.1+; node 20 has none and compiles the program at every start. @types/node is 20's.
  const { enableCompileCache } = /** @type {{ enableCompileCache?: (dir: string) => unknown }} */ (require('node:module'));
  const dir =
    enableCompileCache && !process.env.NODE_DISABLE_COMPILE_CACHE && require('./compile-cache-dir.js').compileCacheDir(process.env);
  if (dir) enableCompileCache(dir);
  return Promise.resolve(require(file));
}

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${require('../package.json').version}\n`); // without loading the program
} else {
  const program = loadProgram();
  let settled = !program;
  if (!program) exitWhenWritten(1);
  program
    ?.then((/** @type {{ main(argv: string[], deps: object): Promise<number> }} */ { main }) => main(argv, { signal: controller.signal }))
    .then((code) => {
      settled = true;
      endWhenDone(code);
    });
  // Nothing left to wait on, yet the command has not finished: node would exit 0, which a script takes
  // for success (a verdict never given). That is a bug: say so and fail. Checked on the next turn:
  // another 'beforeExit' listener (the prompt's, for Ctrl-D) may settle it.
  process.on('beforeExit', () => {
    // A run that is done ends here (endWhenDone): nothing is scheduled, or the loop would never end.
    if (settled) return;
    setImmediate(() => {
      if (settled) return;
      process.stderr.write('error: the command stopped before it finished (a bug in booking; please report it)\n');
      exitWhenWritten(1);
    });
  });
}
