// Preloaded (node -r) by tests that signal a process as soon as it can take Ctrl-C: writes one line
// to fd 3 when the program puts its SIGINT handler in place ('newListener' is emitted just before
// the listener is added, in the same synchronous call, so it is there by the time the line is read).
// A signal sent on that line arrives while the rest of the program loads, with no guess at a delay.
let told = false;
process.on('newListener', (event) => {
  if (event !== 'SIGINT' || told) return;
  told = true;
  require('node:fs').writeSync(3, 'ctrl-c handler in place\n');
});
