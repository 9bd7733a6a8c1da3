// @ts-check
// The memory rows of `npm run bench` (issue 7): the peak RSS of `bookings list -o ndjson` for 100,000
// bookings against 20,000, judged at 1.3x, and beside it, as information, the same pair for node's
// own loop (bare-loop.mjs), for the listing with V8's optimizing compiles run on the main thread, and
// for 300,000 against 60,000 bookings (both runs past V8's warm-up). Why those: docs/performance.md,
// "The whole benchmark".
import { closeSync, createReadStream, openSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { gnuTime, maxRssKiB, median, pairedPeaks } from './measure.mjs';
import { HUGE, LARGE, SMALL, WARM } from './kit.mjs';

/**
 * Issue 7's memory row and the information beside it (see the top of this file).
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports
 */
export async function rowMemory(kit, ports) {
  const { note, record, rounds, envAt, booking, bareLoop, skipped, tmp } = kit;
  const time = gnuTime();
  if (!time) return void skipped.push('peak memory: GNU time (/usr/bin/time) not installed');
  note(
    `memory: max RSS of bookings list -o ndjson, ${WARM} vs ${HUGE} and ${SMALL} vs ${LARGE} bookings, of the bare loop, and of the listing with V8's compiles on the main thread (${rounds.memory} rounds)`,
  );
  const sizes = [SMALL, LARGE, WARM, HUGE];
  /** @type {Record<number, number[]>} */
  const peaks = Object.fromEntries(sizes.map((n) => [n, []]));
  /** @type {Record<number, number[]>} */
  const bare = { [SMALL]: [], [LARGE]: [] };
  /** @type {Record<number, number[]>} */
  const onMainThread = { [SMALL]: [], [LARGE]: [] };
  const list = (total) => booking(envAt(ports, total), 'bookings', 'list', '--page-size', '100', '-o', 'ndjson');
  const loop = (total) => bareLoop(envAt(ports, total));
  for (let round = 0; round < rounds.memory; round++) {
    for (const total of round % 2 ? [...sizes].reverse() : sizes) {
      peaks[total].push(await peakLines(tmp, time, list(total), total));
      if (!(total in bare)) continue;
      bare[total].push(await peakLines(tmp, time, loop(total), total));
      onMainThread[total].push(await peakLines(tmp, time, withV8Flag(SYNC_COMPILES, list(total)), total));
    }
  }
  /** One listing's peaks against a shorter one's (per round), with a target or as information. */
  const peakRow = (who, more, peaksMore, fewer, peaksFewer, target) =>
    record({
      name: `peak RSS, ${who}: ${more.toLocaleString('en')} vs ${fewer.toLocaleString('en')} bookings${target ? '' : ' (info)'}`,
      ours: median(peaksMore),
      theirs: median(peaksFewer),
      against: `${fewer.toLocaleString('en')} bookings`,
      ...pairedPeaks(peaksMore, peaksFewer),
      ...(target ? { op: '≤', target } : {}),
      unit: 'memory',
    });
  // Issue 7's row: 100,000 within 1.3x of 20,000.
  peakRow('`-o ndjson`', LARGE, peaks[LARGE], SMALL, peaks[SMALL], 1.3);
  // What that row measures on node 24 beside the listing: a 20,000-booking run ends (~0.5 s) before
  // V8's compilers have optimized the request path (~0.9 s), and their working memory is what the
  // 100,000-booking run's peak has more of. Node's own loop grows by as much, and from WARM bookings
  // on (past that second) the peak is flat (docs/performance.md, "The whole benchmark").
  peakRow('the bare loop', LARGE, bare[LARGE], SMALL, bare[SMALL]);
  // The same listing with V8's optimizing compiles run on the main thread, one at a time: what the
  // listing itself holds, without the ~150 compile jobs queued at once when the request path turns
  // hot (~400 pages in). A flag given to node from outside, for this row only: the program sets none.
  peakRow(`\`-o ndjson\`, node ${SYNC_COMPILES}`, LARGE, onMainThread[LARGE], SMALL, onMainThread[SMALL]);
  peakRow('`-o ndjson`', HUGE, peaks[HUGE], WARM, peaks[WARM]);
}

const SYNC_COMPILES = '--no-concurrent-recompilation';

/**
 * `run` with a V8 flag given to node on its command line (a measurement's, never the program's).
 * @param {string} flag @param {import('./kit.mjs').Run} run
 */
const withV8Flag = (flag, run) => ({ ...run, args: [flag, ...run.args] });

/**
 * The max RSS (KiB) of a run that prints a listing, whose output must hold `total` lines.
 * @param {string} tmp @param {string} time GNU time @param {import('./kit.mjs').Run} run @param {number} total
 */
async function peakLines(tmp, time, run, total) {
  const out = join(tmp, 'peak.out');
  const fd = openSync(out, 'w');
  let kib;
  try {
    kib = maxRssKiB(time, run, fd);
  } finally {
    closeSync(fd);
  }
  const lines = await countLines(out);
  rmSync(out);
  if (lines !== total) throw new Error(`${run.args.join(' ')} printed ${lines} lines, expected ${total}`);
  return kib;
}

/** @param {string} path */
async function countLines(path) {
  let n = 0;
  for await (const chunk of createReadStream(path)) for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) n++;
  return n;
}
