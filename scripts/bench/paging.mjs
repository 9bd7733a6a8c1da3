// @ts-check
// The paging and lossless rows of `npm run bench` (issues 10, 24 and 32): `bookings list -o ndjson`
// against the least a program can do (bare-loop.mjs: node's http, JSON.parse, JSON.stringify), for
// ids JSON.parse keeps and for 64-bit ids it would round, which booking prints byte for byte; and the
// peak memory of a 63 MiB body holding one 20-digit id (issue 23's "accepted bodies multiply").
import { closeSync, openSync } from 'node:fs';
import { gnuTime, interleave, maxRssKiB, median, mustSucceed, paired, runOnce } from './measure.mjs';
import { BIG_MIB, SMALL, fmtMiB } from './kit.mjs';
import { BIG_ID, bookingJson, plainBookingJson } from './server.mjs';

/** @type {Map<string, Record<string, number[]>>} */
const pagingTimes = new Map();

/**
 * booking -o ndjson against the bare loop over 20,000 bookings, timed once a bench run per kind of
 * id (the output row and the lossless row with small ids read the same runs: two separate runs of
 * the same pair, a minute apart, read 1.29x and 1.47x on this VM). The output is checked first:
 * booking prints the server's items byte for byte; the bare loop the same lines, but with 64-bit ids
 * rounded by JSON.parse (so only its line count is checked then).
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports @param {'small' | '64-bit'} kind
 */
export function pagingAgainstBareLoop(kit, ports, kind) {
  const { rounds, envAt, booking, bareLoop } = kit;
  const known = pagingTimes.get(kind);
  if (known) return known;
  const env = envAt(ports, kind === 'small' ? `plain:${SMALL}` : SMALL);
  const runs = { booking: booking(env, 'bookings', 'list', '--page-size', '100', '-o', 'ndjson'), bare: bareLoop(env) };
  const ours = mustSucceed('booking bookings list', runOnce(runs.booking, { capture: true })).stdout.toString();
  const theirs = mustSucceed('bare loop', runOnce(runs.bare, { capture: true })).stdout.toString();
  const exact = Array.from({ length: SMALL }, (_, i) => `${kind === 'small' ? plainBookingJson(i) : bookingJson(i)}\n`).join('');
  if (ours !== exact) throw new Error(`booking -o ndjson did not print the server's ${kind} ids byte for byte`);
  if (theirs.split('\n').length !== ours.split('\n').length) throw new Error('the bare node loop printed another number of lines');
  if (kind === 'small' && ours !== theirs) throw new Error('booking -o ndjson and the bare node loop printed different lines');
  const t = interleave(runs, { rounds: rounds.paging, warmup: 1 });
  pagingTimes.set(kind, t);
  return t;
}

/**
 * ndjson paging against the bare loop, for ids JSON.parse keeps and for 64-bit ids it rounds; then
 * the peak memory of a big body with one 20-digit id in it.
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports
 */
export async function rowLossless(kit, ports) {
  const { note, record, rounds, envAt, booking, skipped } = kit;
  note(
    `lossless: ${SMALL} bookings with small and 64-bit ids vs a bare node loop; peak RSS on a ${BIG_MIB} MiB body (${rounds.paging} rounds; the body ${rounds.lossless})`,
  );
  for (const kind of /** @type {const} */ (['small', '64-bit'])) {
    const t = pagingAgainstBareLoop(kit, ports, kind);
    record({
      name: `${SMALL.toLocaleString('en')} bookings with ${kind} ids, ndjson, against the bare loop`,
      ours: median(t.booking),
      theirs: median(t.bare),
      against: 'bare node http + JSON.parse loop',
      ...paired(t, 'booking', 'bare'),
      op: '≤',
      target: 1.3,
      unit: 'time',
    });
  }
  const time = gnuTime();
  if (!time) return void skipped.push('lossless peak memory: GNU time (/usr/bin/time) not installed');
  // Peak RSS beyond the command's own footprint (the same command on an 80-byte body), per byte of
  // the body: the multiple a big body costs, whatever the start-up memory of node is.
  const env = envAt(ports, `big:${BIG_MIB}`);
  const bodyKiB = BIG_MIB * 1024;
  const nul = openSync('/dev/null', 'w');
  try {
    for (const [name, argv, expect] of /** @type {[string, string[], string][]} */ ([
      ['`api`', ['api', '/big'], `      "id": ${BIG_ID},\n`],
      ['`api --paginate -o ndjson`', ['api', '/big', '--paginate', '-o', 'ndjson'], `{"id":${BIG_ID},"note":"xxx`],
    ])) {
      const out = mustSucceed(`booking ${argv.join(' ')}`, runOnce(booking(env, ...argv), { capture: true })).stdout;
      if (!out.includes(expect) || out.length < bodyKiB * 1024 - 100)
        throw new Error(`booking ${argv.join(' ')} did not print the body with its id exact`);
      const peak = [];
      const floor = [];
      for (let round = 0; round < rounds.lossless; round++) {
        peak.push(maxRssKiB(time, booking(env, ...argv), nul));
        floor.push(maxRssKiB(time, booking(env, ...argv.map((a) => (a === '/big' ? '/tiny' : a))), nul));
      }
      const ours = median(peak);
      const base = median(floor);
      record({
        name: `peak RSS, a ${BIG_MIB} MiB body holding one 20-digit id: ${name} (beyond its ${fmtMiB(base)} on a tiny body)`,
        ours,
        theirs: bodyKiB,
        against: 'the body',
        ratio: (ours - base) / bodyKiB,
        op: '≤',
        target: 4,
        unit: 'memory',
      });
    }
  } finally {
    closeSync(nul);
  }
}
