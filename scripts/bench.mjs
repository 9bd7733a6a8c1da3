// @ts-check
// `npm run bench`: the performance targets, measured on this machine against its own loopback servers
// (127.0.0.1 only). Not a test: it prints a table of ratios, each with its target.
//
//   node scripts/bench.mjs [--quick] [--only start,list,memory,output,lossless,verify,captures,bounds]
//   scripts/node-line 24 npm run bench     (on another node line: docs/development.md)
//
// The targets hold on node 22 and later (node's compile cache, module.enableCompileCache); on node 20,
// which has none, the same rows are reported as information.
//
// The rows are in scripts/bench/: start.mjs (start-up), listing.mjs (against curl + jq, and the output
// rows), memory.mjs, paging.mjs (against the bare loop, and lossless numbers), webhooks.mjs and
// bounds.mjs; kit.mjs holds what they share, and this file makes the kit, runs them and prints the table.
// Every row first checks that the compared commands produce the right result, then times them
// alternately (see bench/measure.mjs). Big files go into a temp folder that is removed at the end.
// A tool that is missing (curl, jq, openssl, GNU time) skips its row with a note; nothing is
// installed. A row's ratio is shown with the interval its median lies in (~95%, from the spread of
// its rounds); a row that misses its target by less than that is "within noise", which the issue
// counts as met (record()). Exit status: 0 when every measured target is met or within noise, 1 when
// one is not, 2 on an error.
//
// The children run without NODE_EXTRA_CA_CERTS: when it is set, node reads and parses that CA
// bundle at every start (35-50 ms here), which would inflate the `node -e 0` baseline and flatter
// every start-up ratio. Nothing here uses TLS. Their compile cache (see bin/booking.js) is kept in the
// temp folder: the unmeasured first round of each row makes it, as a user's first run would; a row
// marked (info) shows the cost of a run without one.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { cpuModel, medianInterval } from './bench/measure.mjs';
import { rowBounds } from './bench/bounds.mjs';
import { API_KEY, BIG_MIB, HUGE, LARGE, SMALL, WARM, fmtMiB, fmtMs, sh } from './bench/kit.mjs';
import { rowList, rowOutput } from './bench/listing.mjs';
import { rowMemory } from './bench/memory.mjs';
import { rowLossless } from './bench/paging.mjs';
import { rowStart } from './bench/start.mjs';
import { rowCaptures, rowVerify } from './bench/webhooks.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'booking.js');
const NODE = process.execPath;
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const HAS_COMPILE_CACHE = Number(process.versions.node.split('.')[0]) >= 22;
const args = process.argv.slice(2);
const quick = args.includes('--quick');
const onlyArg = args.find((_, i) => args[i - 1] === '--only') ?? args.find((a) => a.startsWith('--only='))?.slice(7);
const ROWS = ['start', 'list', 'memory', 'output', 'lossless', 'verify', 'captures', 'bounds'];
if (onlyArg === undefined && args.includes('--only')) fail('--only needs the rows to run, e.g. --only start,memory');
const only = new Set(onlyArg === undefined ? ROWS : onlyArg.split(','));
for (const r of only) if (!ROWS.includes(r)) fail(`unknown row "${r}": use ${ROWS.join(', ')}`);
const ROUNDS = quick
  ? { start: 15, list: 1, memory: 1, output: 1, outputPeaks: 1, paging: 3, lossless: 3, verify: 3, captures: 5, bounds: 1 }
  : { start: 40, list: 3, memory: 5, output: 7, outputPeaks: 3, paging: 15, lossless: 3, verify: 5, captures: 10, bounds: 3 };

function fail(message) {
  process.stderr.write(`bench: ${message}\n`);
  process.exit(2);
}

function note(line) {
  process.stderr.write(`${line}\n`);
}

function have(tool) {
  return spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
}

function toolVersion(cmd, args) {
  const r = spawnSync(cmd, args, { encoding: 'utf8' });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split('\n')[0] : undefined;
}

// --- set-up -----------------------------------------------------------------------------------

try {
  statSync(join(ROOT, 'dist', 'cli.cjs'));
} catch {
  fail('dist/cli.cjs is missing: run `node scripts/build.mjs` (npm run bench does).');
}

const tmp = mkdtempSync(join(os.tmpdir(), 'booking-bench-'));
const servers = [];
const cleanup = () => {
  for (const s of servers) s.kill();
  rmSync(tmp, { recursive: true, force: true });
};
process.on('exit', cleanup);
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(130));

const baseEnv = {
  ...process.env,
  BOOKING_CONFIG_DIR: join(tmp, 'config'),
  XDG_CACHE_HOME: join(tmp, 'cache'),
  BOOKING_API_KEY: API_KEY,
  NO_COLOR: '1',
};
for (const k of [
  'NODE_EXTRA_CA_CERTS',
  'NODE_DISABLE_COMPILE_CACHE',
  'BOOKING_BASE_URL',
  'BOOKING_PROFILE',
  'BOOKING_DEBUG',
  'BOOKING_WEBHOOK_SECRET',
  'FORCE_COLOR',
])
  delete baseEnv[k];
mkdirSync(baseEnv.BOOKING_CONFIG_DIR, { mode: 0o700 });

/** A loopback API of scripts/bench/ in its own process: what its first line says (server.mjs: {total: port}). */
async function startServer(totals, script = 'server.mjs') {
  const child = spawn(NODE, [join(ROOT, 'scripts', 'bench', script), API_KEY, ...totals.map(String)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  servers.push(child);
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once('line', (l) => {
      rl.close();
      resolve(l);
    });
    child.once('exit', (code) => reject(new Error(`bench server exited ${code}`)));
  });
  return JSON.parse(line);
}

const booking = (env, ...argv) => ({ cmd: NODE, args: [BIN, ...argv], env });
/** The least a program can do to print the listing as ndjson (scripts/bench/bare-loop.mjs). */
const bareLoop = (env) => ({ cmd: NODE, args: [join(ROOT, 'scripts', 'bench', 'bare-loop.mjs')], env });
/** The runs' environment, pointed at the bench server of `key` (a total, or "plain:…", "big:…"). */
const envAt = (ports, key) => ({ ...baseEnv, BOOKING_BASE_URL: `http://127.0.0.1:${ports[key]}` });
const results = [];
const skipped = [];
const notes = [];
const load = [os.loadavg()[0]];

/**
 * One row of the table. `ratio` compares as the target says ("≤" or "≥"). With `rounds` (the ratio of
 * each round), a row whose median misses its target by less than the median's own uncertainty
 * (medianInterval) is "within noise": the issue's rule that a row within run-to-run noise of its
 * target counts as met, made a measurement. The table shows the interval beside the ratio.
 */
function record(row) {
  // Node 20 has no compile cache: its rows are information (see the top of this file).
  if (!HAS_COMPILE_CACHE && row.target !== undefined) row = { ...row, name: `${row.name} (info on node 20)`, target: undefined };
  const interval = row.rounds && row.rounds.length >= 3 ? medianInterval(row.rounds) : undefined;
  const spread = interval ? ` (${interval[0].toFixed(2)}-${interval[1].toFixed(2)})` : '';
  if (row.target === undefined) {
    results.push({ ...row, interval, verdict: undefined });
    return void note(`  → ${row.name}: ${row.ratio.toFixed(2)}×${spread} (information)`);
  }
  const below = row.op === '≤';
  const met = below ? row.ratio <= row.target : row.ratio >= row.target;
  const near = interval !== undefined && (below ? interval[0] <= row.target : interval[1] >= row.target);
  const verdict = met ? 'met' : near ? 'within noise' : 'not met';
  results.push({ ...row, interval, verdict });
  note(
    `  → ${row.name}: ${row.ratio.toFixed(2)}×${spread} (target ${row.op} ${row.target}×) ${verdict === 'not met' ? 'NOT MET' : verdict}`,
  );
}

/** @type {import('./bench/kit.mjs').Kit} */
const kit = {
  root: ROOT,
  version: VERSION,
  tmp,
  baseEnv,
  rounds: ROUNDS,
  booking,
  bareLoop,
  envAt,
  bookingLine: (...argv) => [NODE, BIN, ...argv].map(sh).join(' '),
  record,
  note,
  notes,
  skipped,
  have,
  toolVersion,
};

// --- run --------------------------------------------------------------------------------------

try {
  const totals = [
    SMALL,
    LARGE,
    ...(only.has('memory') ? [WARM, HUGE] : []),
    ...(only.has('output') || only.has('lossless') ? [`plain:${SMALL}`] : []),
    ...(only.has('lossless') ? [`big:${BIG_MIB}`] : []),
  ];
  const ports = ['start', 'list', 'memory', 'output', 'lossless'].some((r) => only.has(r)) ? await startServer(totals) : {};
  if (only.has('start')) await rowStart(kit, ports);
  if (only.has('list')) await rowList(kit, ports);
  if (only.has('memory')) await rowMemory(kit, ports);
  if (only.has('output')) await rowOutput(kit, ports);
  if (only.has('lossless')) await rowLossless(kit, ports);
  if (only.has('verify')) await rowVerify(kit);
  if (only.has('captures')) await rowCaptures(kit);
  if (only.has('bounds')) {
    const { port } = await startServer([], 'bounds-server.mjs');
    const env = { ...baseEnv, BOOKING_BASE_URL: `http://127.0.0.1:${port}` };
    await rowBounds(kit, env);
  }
} catch (err) {
  fail(err instanceof Error ? err.message : String(err));
}
load.push(os.loadavg()[0]);

const fmt = (r, v) => (r.unit === 'memory' ? fmtMiB(v) : fmtMs(v));
const lines = [
  '| Check | booking | Compared with | Ratio | Target | |',
  '|---|---:|---|---:|---:|---|',
  ...results.map(
    (r) =>
      `| ${r.name} | ${fmt(r, r.ours)} | ${r.against}: ${fmt(r, r.theirs)} | ${r.ratio.toFixed(2)}×${r.interval ? ` (${r.interval[0].toFixed(2)}-${r.interval[1].toFixed(2)})` : ''} | ${r.target === undefined ? '—' : `${r.op} ${r.target}×`} | ${r.verdict === 'not met' ? '**not met**' : (r.verdict ?? '')} |`,
  ),
];
const machine = [
  cpuModel() ?? os.arch(),
  `${os.cpus().length} cores`,
  `${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  `${os.type()} ${os.release()}`,
  `node ${process.version}`,
  ...[
    ['curl', ['--version']],
    ['jq', ['--version']],
    ['openssl', ['version']],
  ].map(([c, a]) => (have(c) ? toolVersion(c, a)?.split(' ').slice(0, 2).join(' ') : `${c} missing`)),
].join(', ');
process.stdout.write(`\n${lines.join('\n')}\n\n`);
process.stdout.write(`Machine: ${machine}; load average ${load[0].toFixed(2)} at start, ${load[1].toFixed(2)} at the end.\n`);
process.stdout.write(`Ratios are medians over alternating rounds (${quick ? 'quick run' : 'full run'}); times are medians.\n`);
for (const n of notes) process.stdout.write(`Note: ${n}\n`);
for (const s of skipped) process.stdout.write(`Skipped: ${s}\n`);
process.exit(results.every((r) => r.verdict !== 'not met') ? 0 : 1);
