// The bounds of send --scenario's options, in a module of their own: send.ts declares the options at
// start-up for every run, and importing them from series.ts would load node:crypto (~10 ms) into
// runs that never send anything.
/** --duplicate: at most this many copies of each delivery. */
export const MAX_DUPLICATE = 100;
/** --delay: at most this long between deliveries. */
export const MAX_DELAY_MS = 60_000;
