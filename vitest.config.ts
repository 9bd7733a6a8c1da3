import { defineConfig } from 'vitest/config';

// With NODE_EXTRA_CA_CERTS set (this machine sets it to the system's CA bundle), node reads and parses
// that file at every start: ~95 ms of CPU on node 20, for each of the suite's ~400 CLI processes and
// tools, 35 of its 230 s of CPU. No test talks TLS (every server is the test's own, on loopback), so
// the workers and everything they start go without it, as the bench's runs do (scripts/bench.mjs).
delete process.env.NODE_EXTRA_CA_CERTS;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // End-to-end tests spawn real processes and servers, and much of their time is spent waiting on
    // them (Retry-After, backoff, a prompt, a terminal): three workers on two cores keep the cores busy.
    pool: 'forks',
    maxWorkers: 3,
    // Files share their worker's loaded modules (a fresh module graph per file cost about half the
    // suite's time in imports). Tests that change process-wide state (process.env, TZ) restore it.
    isolate: false,
    // `SUITE_CPU_LOG=/tmp/cpu.tsv npx vitest run`: each file's CPU, one line a file (docs/development.md).
    setupFiles: process.env.SUITE_CPU_LOG ? ['test/helpers/suite-cpu.ts'] : [],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
