#!/usr/bin/env node
// Entry point: runs the CLI and maps the outcome to the process exit code. The only place that exits.
import { main } from '../dist/cli.js';

const controller = new AbortController();
let interrupted = false;
const onSignal = (signal) => {
  // A second Ctrl-C (or a command slow to stop) ends the process at once.
  if (interrupted) process.exit(130);
  interrupted = true;
  controller.abort(new Error(signal));
  setTimeout(() => process.exit(130), 3000).unref();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// Writing into a closed pipe (`booking ... | head -1`) ends quietly.
const onStreamError = (err) => {
  if (err && err.code === 'EPIPE') process.exit(interrupted ? 130 : 0);
  throw err;
};
process.stdout.on('error', onStreamError);
process.stderr.on('error', onStreamError);

const code = await main(process.argv.slice(2), { signal: controller.signal });
// stdout/stderr writes are synchronous on Linux for files, pipes and terminals, so nothing is lost.
process.exit(code);
