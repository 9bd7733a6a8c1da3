// @ts-check
// The bounds rows of `npm run bench` (issue 23), against scripts/bench/bounds-server.mjs:
//
// - wide text as a table: one 12,000-character CJK title (24 KB as UTF-16, 24,000 columns), and 60
//   items of mixed wide text, printed with `-o table` at COLUMNS=100. Bound: under 1 s. Judged on
//   the CPU time (user + system) the run used: on a shared machine the wall time measures the load
//   more than the program (it is shown in a note). Before one-pass cutting this took 105 s and 14 min.
// - --jq peak RSS against input size: `--jq length` of JSON arrays of booking-like items, up to and
//   past the refusal bound (an estimate of 192 MiB of jq memory, src/output/jq-input.ts). Bound: no
//   --jq run peaks above RSS_BOUND, whatever its input: jq-wasm's heap is capped at 256 MiB, and
//   the rest is node, the body and the JSON text handed to jq (each about 20 MiB at the bound).
// - an endless paging server under `--paginate --jq`: the list is refused as soon as the pages so
//   far pass the bound, with the same RSS bound (before: 1.5 GB after 30 s for a million items).
//
// - `webhook send --set` applied 20,000 times to a 700 KB body (`--print-curl`: built, signed and printed,
//   not sent). Bound: under 1 s of CPU time. Each set used to re-scan the body: 43 s.
//
// Memory rows run once each (a peak moves little from run to run, and each takes a while); the
// wide-text rows run `rounds` times and the median counts.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gnuTime, median, resources } from './measure.mjs';
import { fmtMs } from './kit.mjs';

const CJK_CHARS = 12_000;
const MIXED_ITEMS = 60;
const TABLE_BOUND_MS = 1_000;
const SETS = 20_000;
const SETS_BOUND_MS = 1_000;
const RSS_BOUND_MIB = 768;
// Booking-like items: about 330 bytes of JSON each; the estimate refuses an array between 60,000 and 64,000.
const JQ_SIZES = [1_000, 30_000, 60_000, 64_000];
const REFUSED = /^error: --jq: the (input|list) \((.*?)\) is too large for the built-in jq .*-o ndjson \| jq/;

/**
 * @param {import('./kit.mjs').Kit} kit
 * @param {import('./kit.mjs').Env} env  pointed at scripts/bench/bounds-server.mjs
 */
export async function rowBounds(kit, env) {
  const { tmp, booking, record, note, notes, skipped } = kit;
  const rounds = kit.rounds.bounds;
  const time = gnuTime();
  if (!time) return void skipped.push('bounds rows: GNU time (/usr/bin/time) not installed');
  const report = join(tmp, 'bounds-time.txt');
  const run = (e, ...argv) => resources(time, booking(e, ...argv), report);

  note(`bounds: wide text as a table at COLUMNS=100 (${rounds} rounds)`);
  const wide = { ...env, COLUMNS: '100' };
  for (const [label, items] of /** @type {[string, number][]} */ ([
    [`one ${CJK_CHARS.toLocaleString('en')}-character CJK title (24 KB)`, 1],
    [`${MIXED_ITEMS} items of mixed wide text, the first that CJK title`, MIXED_ITEMS],
  ])) {
    /** @type {ReturnType<typeof resources>[]} */
    const runs = [];
    for (let round = 0; round < rounds; round++) {
      const r = run(wide, 'api', `/wide?n=${items}&chars=${CJK_CHARS}`, '--paginate', '-o', 'table', '--no-pager');
      const lines = r.stdout.split('\n');
      if (r.status !== 0 || lines.length !== items + 2 || !lines[0].startsWith('UID') || !/^bk_0000000 +(漢字)+漢?… /.test(lines[1])) {
        throw new Error(`the wide-text table of ${items} exited ${r.status} with ${lines.length - 1} lines:\n${r.stderr}`);
      }
      runs.push(r);
    }
    const cpu = median(runs.map((r) => r.cpuMs));
    record({
      name: `${label}, as a table (\`-o table\`), CPU time`,
      ours: cpu,
      theirs: TABLE_BOUND_MS,
      against: 'the bound',
      ratio: cpu / TABLE_BOUND_MS,
      op: '≤',
      target: 1,
      unit: 'time',
    });
    notes.push(`${label} as a table: wall time ${fmtMs(median(runs.map((r) => r.wallMs)))} (median) on this machine.`);
  }

  note(`bounds: ${SETS.toLocaleString('en')} --set on a 700 KB body (${rounds} rounds)`);
  const body = join(tmp, 'sets-body.json');
  writeFileSync(body, `{"event":"booking.created","data":{"blob":"${'x'.repeat(700_000)}"}}`);
  const sets = Array.from({ length: SETS }, (_, i) => ['--set', `data.f${i}=${i}`]).flat();
  const setEnv = { ...env, BOOKING_WEBHOOK_SECRET: 'whsec_bench_sets' };
  const setRuns = [];
  for (let round = 0; round < rounds; round++) {
    const r = run(setEnv, 'webhook', 'send', 'http://127.0.0.1:9/', '--event', 'booking.created', '--body', body, '--print-curl', ...sets);
    if (r.status !== 0 || !r.stdout.includes(`"f${SETS - 1}":${SETS - 1}`)) {
      throw new Error(`webhook send with ${SETS} --set exited ${r.status}:\n${r.stderr.slice(0, 2000)}`);
    }
    setRuns.push(r);
  }
  const setCpu = median(setRuns.map((r) => r.cpuMs));
  record({
    name: `\`webhook send --print-curl\` with ${SETS.toLocaleString('en')} \`--set\` on a 700 KB body, CPU time`,
    ours: setCpu,
    theirs: SETS_BOUND_MS,
    against: 'the bound',
    ratio: setCpu / SETS_BOUND_MS,
    op: '≤',
    target: 1,
    unit: 'time',
  });

  note(`bounds: --jq peak RSS against input size (${JQ_SIZES.map((n) => n.toLocaleString('en')).join(', ')} items), once each`);
  let refusals = 0;
  for (const n of JQ_SIZES) {
    const r = run(env, 'api', `/items?n=${n}`, '--jq', 'length');
    const refused = REFUSED.exec(r.stderr);
    if (r.status === 0 ? r.stdout !== `${n}\n` : r.status !== 1 || !refused) {
      throw new Error(`--jq length of ${n} items exited ${r.status}, printed ${JSON.stringify(r.stdout)}:\n${r.stderr}`);
    }
    if (refused) refusals++;
    recordRss(record, `\`--jq length\` of ${n.toLocaleString('en')} items${refused ? ` (refused: ${refused[2]})` : ''}`, r);
  }
  if (!refusals) throw new Error(`--jq took ${JQ_SIZES.at(-1)} items: the sizes no longer reach its bound`);

  note('bounds: --paginate --jq against a server that pages for ever');
  const r = run(env, 'api', '/endless', '--paginate', '--jq', 'length');
  const refused = REFUSED.exec(r.stderr);
  if (r.status !== 1 || refused?.[1] !== 'list') throw new Error(`the endless --jq listing exited ${r.status}:\n${r.stderr}`);
  recordRss(record, `\`--paginate --jq length\` of an endless list (stopped: ${refused[2]})`, r);
  notes.push(`the endless listing under --jq stopped by itself after ${fmtMs(r.wallMs)} (wall), with the refusal line and exit 1.`);
}

/** A peak against RSS_BOUND_MIB. */
function recordRss(record, name, r) {
  const bound = RSS_BOUND_MIB * 1024;
  record({
    name: `peak RSS, ${name}`,
    ours: r.rssKiB,
    theirs: bound,
    against: 'the bound',
    ratio: r.rssKiB / bound,
    op: '≤',
    target: 1,
    unit: 'memory',
  });
}
