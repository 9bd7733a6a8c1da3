// Preloaded (node -r) by tests that need to know when node has finished its own start-up and is
// about to run bin/booking.js: writes one line to fd 3. Before that point no JavaScript runs, so no
// handler of ours can be in place.
require('node:fs').writeSync(3, 'started\n');
