// Where the suite's CPU goes, file by file: with SUITE_CPU_LOG=<file> set, vitest.config.ts adds this
// setup file, and each test file appends a line to <file>: CPU seconds in all, the worker's own, its
// reaped children's (the CLI runs, shells and tools it started), wall seconds, the file. The workers
// run one file at a time (isolate: false shares their modules, not their time), so the difference of
// /proc/self/stat's times around a file is that file's. Linux only; elsewhere it writes nothing.
import { appendFileSync, existsSync } from 'node:fs';
import { afterAll, beforeAll, expect } from 'vitest';
import { cpuSeconds } from './process-state';

const LOG = process.env.SUITE_CPU_LOG;
const PROC = existsSync('/proc/self/stat');

let start = { own: 0, children: 0 };
let startedAt = 0;
beforeAll(() => {
  if (!LOG || !PROC) return;
  start = cpuSeconds('self');
  startedAt = performance.now();
});
afterAll(() => {
  if (!LOG || !PROC) return;
  const now = cpuSeconds('self');
  const own = now.own - start.own;
  const children = now.children - start.children;
  const file = expect.getState().testPath ?? '?';
  const row = [own + children, own, children, (performance.now() - startedAt) / 1000].map((n) => n.toFixed(1));
  appendFileSync(LOG, `${row.join('\t')}\t${file}\n`);
});
