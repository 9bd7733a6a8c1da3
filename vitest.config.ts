import { defineConfig } from 'vitest/config';

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
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
