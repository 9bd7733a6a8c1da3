// @ts-check
// Timing and memory of child processes for the benchmark. Every measured command is spawned with
// spawnSync (the loopback servers live in another process, so nothing here needs the event loop),
// and compared commands run alternately: round i runs each of them once, in an order rotated by i,
// so that a burst of load from elsewhere hits the compared commands alike. The statistic is the
// median over rounds of the per-round ratio, which a burst hitting one command of one round moves
// little; the medians of the plain times are shown beside it.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

/**
 * @typedef {{ cmd: string, args: string[], env?: Record<string, string|undefined>, stdout?: 'ignore'|number, shell?: boolean }} Run
 * @typedef {{ ms: number, status: number | null, signal: NodeJS.Signals | null, stdout: Buffer | undefined, stderr: string }} RunResult
 * @typedef {{ capture?: boolean, input?: string }} RunOptions
 */

/**
 * @overload
 * @param {Run} run
 * @param {RunOptions & { capture: true }} options
 * @returns {RunResult & { stdout: Buffer }}
 */
/**
 * @overload
 * @param {Run} run
 * @param {RunOptions} [options]
 * @returns {RunResult}
 */
/**
 * Runs once, returning wall ms, exit status and (when stdout is 'pipe') the output.
 * @param {Run} run
 * @param {RunOptions} [options]
 * @returns {RunResult}
 */
export function runOnce(run, { capture = false, input } = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(run.cmd, run.args, {
    env: run.env,
    stdio: [input === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : (run.stdout ?? 'ignore'), 'pipe'],
    input,
    maxBuffer: 1 << 30,
  });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw r.error;
  return { ms, status: r.status, signal: r.signal, stdout: capture ? r.stdout : undefined, stderr: r.stderr.toString() };
}

/**
 * Throws with the command's stderr when it did not exit 0.
 * @template {{ status: number | null, signal?: NodeJS.Signals | null, stderr: string }} R
 * @param {string} name
 * @param {R} result
 * @returns {R}
 */
export function mustSucceed(name, result) {
  if (result.status !== 0) {
    throw new Error(`${name} exited ${result.status ?? result.signal}:\n${result.stderr.trim().split('\n').slice(-5).join('\n')}`);
  }
  return result;
}

/** @param {number[]} values */
export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Runs `runs` (name → Run) alternately for `rounds` rounds (after `warmup` unmeasured rounds) and
 * returns per name the times in ms; each run must exit 0.
 * @param {Record<string, Run>} runs
 * @param {{ rounds: number, warmup?: number, onRound?: (round: number) => void }} options
 * @returns {Record<string, number[]>}
 */
export function interleave(runs, { rounds, warmup = 1, onRound }) {
  const names = Object.keys(runs);
  /** @type {Record<string, number[]>} */
  const times = Object.fromEntries(names.map((n) => [n, []]));
  for (let i = -warmup; i < rounds; i++) {
    const k = ((i % names.length) + names.length) % names.length;
    const order = [...names.slice(k), ...names.slice(0, k)];
    for (const name of order) {
      const r = mustSucceed(name, runOnce(runs[name]));
      if (i >= 0) times[name].push(r.ms);
    }
    if (i >= 0) onRound?.(i + 1);
  }
  return times;
}

/**
 * The per-round ratios times[a][i] / times[b][i] (`rounds`) and their median (`ratio`).
 * @param {Record<string, number[]>} times
 * @param {string} a
 * @param {string} b
 */
export function paired(times, a, b) {
  const rounds = times[a].map((t, i) => t / times[b][i]);
  return { ratio: median(rounds), rounds };
}

/**
 * Peaks measured round by round, as a row's `ratio` (the median of the per-round ratios, as the
 * timed rows have it) and `rounds`.
 * @param {number[]} more @param {number[]} fewer
 */
export const pairedPeaks = (more, fewer) => paired({ more, fewer }, 'more', 'fewer');

/**
 * Where the median of `values` lies, at ~95%: median ± 1.58 × IQR / √n (the notch of a box plot,
 * McGill, Tukey and Larsen 1978). A target inside it cannot be told from the measurement by this
 * many rounds on this machine.
 * @param {number[]} values
 * @returns {[number, number]}
 */
export function medianInterval(values) {
  const s = [...values].sort((a, b) => a - b);
  /** @param {number} q */
  const at = (q) => {
    const k = (s.length - 1) * q;
    const lo = Math.floor(k);
    return s[lo] + (s[Math.ceil(k)] - s[lo]) * (k - lo);
  };
  const half = (1.58 * (at(0.75) - at(0.25))) / Math.sqrt(s.length);
  const mid = median(s);
  return [mid - half, mid + half];
}

/**
 * GNU time's path when it can report max RSS, else undefined.
 * @returns {string | undefined}
 */
export function gnuTime() {
  const path = '/usr/bin/time';
  if (!existsSync(path)) return undefined;
  const r = spawnSync(path, ['-f', '%M', 'true'], { stdio: ['ignore', 'ignore', 'pipe'] });
  return r.status === 0 && /^\d+\s*$/.test(r.stderr.toString().trim().split('\n').pop() ?? '') ? path : undefined;
}

/**
 * Runs under GNU time and returns the child's max RSS in KiB (the last stderr line).
 * @param {string} time
 * @param {Run} run
 * @param {number} [stdoutFd]
 */
export function maxRssKiB(time, run, stdoutFd) {
  const r = spawnSync(time, ['-f', '%M', run.cmd, ...run.args], { env: run.env, stdio: ['ignore', stdoutFd ?? 'ignore', 'pipe'] });
  if (r.error) throw r.error;
  const lines = r.stderr.toString().trim().split('\n');
  if (r.status !== 0) throw new Error(`${run.cmd} ${run.args.join(' ')} exited ${r.status}:\n${lines.slice(-5).join('\n')}`);
  return Number(lines.pop());
}

/** The CPU model from /proc/cpuinfo, or undefined. */
export function cpuModel() {
  try {
    return /model name\s*:\s*(.*)/.exec(readFileSync('/proc/cpuinfo', 'utf8'))?.[1]?.trim();
  } catch {
    return undefined;
  }
}

/**
 * Runs under GNU time (its report to `file`, so the child's stderr stays its own) and returns wall
 * and CPU (user + system) ms, max RSS in KiB, the exit status and the output.
 * @param {string} time
 * @param {Run} run
 * @param {string} file
 */
export function resources(time, run, file) {
  const start = process.hrtime.bigint();
  const r = spawnSync(time, ['-o', file, '-f', '%U %S %M', run.cmd, ...run.args], {
    env: run.env,
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 30,
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.error) throw r.error;
  const [user, sys, rss] = (readFileSync(file, 'utf8').trim().split('\n').pop() ?? '').split(' ').map(Number);
  return { wallMs, cpuMs: (user + sys) * 1000, rssKiB: rss, status: r.status, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}
