// @ts-check
// What the rows of `npm run bench` share: the sizes they measure, the key and secret of the bench's
// servers, and the kit scripts/bench.mjs hands every row (its temp folder, its rounds, how to run
// booking and the bare loop against a server, and how to record a row or a note).

export const API_KEY = 'sk_test_bench';
export const SECRET = 'whsec_bench_secret';
export const SMALL = 20_000;
export const LARGE = 100_000;
export const HUGE = 300_000;
// A listing long enough to last past the second in which V8 optimizes the request path: its peak
// against HUGE's shows whether memory grows with the listing, without the compilers' working memory
// (docs/performance.md, "The whole benchmark").
export const WARM = 60_000;
/** The body of the lossless memory rows, one 20-digit id in it (MiB). */
export const BIG_MIB = 63;
/** The body `webhook verify` reads (MiB). */
export const BODY_MIB = 256;
export const CAPTURES = 2_000;

/**
 * `text` quoted for sh.
 * @param {string} text
 */
export const sh = (text) => `'${text.replace(/'/g, `'\\''`)}'`;

/** @param {number} ms */
export const fmtMs = (ms) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(1)} ms`);
/** @param {number} kib */
export const fmtMiB = (kib) => `${(kib / 1024).toFixed(1)} MiB`;

/**
 * @typedef {import('./measure.mjs').Run} Run
 * @typedef {Record<string, string | undefined>} Env
 * @typedef {Record<string, number>} Ports  a bench server's port per listing ("20000", "plain:20000", …)
 */

/**
 * One row of the table: `ratio` is ours against theirs (or the per-round median, with `rounds`),
 * judged as `op` and `target` say; a row without a target is information.
 * @typedef {object} Row
 * @property {string} name
 * @property {number} ours
 * @property {number} theirs
 * @property {string} against
 * @property {number} ratio
 * @property {number[]} [rounds]
 * @property {string} [op]  "≤" or "≥"
 * @property {number} [target]
 * @property {'time' | 'memory'} unit
 */

/**
 * @typedef {object} Kit
 * @property {string} root  the checkout
 * @property {string} version  package.json's
 * @property {string} tmp  the bench's temp folder, removed at the end
 * @property {Env} baseEnv  the runs' environment: the key, a config and cache folder in tmp
 * @property {Record<string, number>} rounds  per row (fewer with --quick)
 * @property {(env: Env, ...argv: string[]) => Run} booking  bin/booking.js with these words
 * @property {(env: Env) => Run} bareLoop  the least a program can do to print the listing (bare-loop.mjs)
 * @property {(ports: Ports, key: string | number) => Env} envAt  baseEnv pointed at one server
 * @property {(...argv: string[]) => string} bookingLine  a shell command line running booking
 * @property {(row: Row) => void} record
 * @property {(line: string) => void} note  printed as the bench goes
 * @property {string[]} notes  printed under the table
 * @property {string[]} skipped  rows whose tool is missing
 * @property {(tool: string) => boolean} have
 * @property {(cmd: string, args: string[]) => string | undefined} toolVersion
 */
