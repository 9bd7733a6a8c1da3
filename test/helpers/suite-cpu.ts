// Where the suite's CPU goes, file by file: with SUITE_CPU_LOG=<file> set, vitest.config.ts adds this
// setup file, and each test file appends a line to <file>: CPU seconds in all, the worker's own, its
// reaped children's (the CLI runs, shells and tools it started), wall seconds, the file. The workers
// run one file at a time (isolate: false shares their modules, not their time), so the difference of
// /proc/self/stat's times around a file is that file's. Linux only; elsewhere it writes nothing.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';

const LOG = process.env.SUITE_CPU_LOG;
const PROC = existsSync('/proc/self/stat');

/** utime, stime, cutime, cstime of this process, in clock ticks (100 a second on Linux). */
function times(): number[] {
  const fields = readFileSync('/proc/self/stat', 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return [11, 12, 13, 14].map((i) => Number(fields[i]));
}

let start: number[] = [];
let startedAt = 0;
beforeAll(() => {
  if (!LOG || !PROC) return;
  start = times();
  startedAt = performance.now();
});
afterAll(() => {
  if (!LOG || !PROC) return;
  const [u, s, cu, cs] = times().map((t, i) => (t - start[i]!) / 100) as [number, number, number, number];
  const file = expect.getState().testPath ?? '?';
  const row = [u + s + cu + cs, u + s, cu + cs, (performance.now() - startedAt) / 1000].map((n) => n.toFixed(1));
  appendFileSync(LOG, `${row.join('\t')}\t${file}\n`);
});
