// Preloaded (node -r) by tests of how a run ends: writes one line to fd 3 when process.exit() is
// called, with its code. A run that is done must end with its loop instead (bin/booking.js endWhenDone).
const exit = process.exit;
process.exit = (code) => {
  require('node:fs').writeSync(3, `process.exit(${code ?? ''})\n`);
  return exit.call(process, code);
};
