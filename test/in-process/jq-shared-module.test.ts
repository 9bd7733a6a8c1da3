// jq's WebAssembly is compiled once a process and given to every jq worker (src/output/jq-worker.ts).
// What that sharing must not change: a run whose worker was terminated (Ctrl-C of an endless filter)
// or whose jq instance aborted (out of its memory) leaves the module as it was, and the next run in
// the same process gets jq's usual answers.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process';

const dir = mkdtempSync(join(tmpdir(), 'booking-jq-module-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { BOOKING_CONFIG_DIR: dir };

/** `config list --jq`: needs no service; its record is an object. */
const jq = (expression: string, signal?: AbortSignal) => runMain(['config', 'list', '--jq', expression], { env, signal });

async function expectJqWorks(): Promise<void> {
  const r = await jq('type');
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toBe('object\n');
}

it('runs jq again after a run whose filter was stopped by Ctrl-C', async () => {
  await expectJqWorks();
  const controller = new AbortController();
  const endless = jq('last(range(1e11))', controller.signal);
  // However far the run has got (starting jq or inside the filter), it ends with 130.
  setTimeout(() => controller.abort(new Error('SIGINT')), 300);
  const r = await endless;
  expect(r.code).toBe(130);
  await expectJqWorks();
}, 30_000);

it('runs jq again after a run whose jq ran out of memory', async () => {
  const r = await jq('reduce range(40) as $i ("x"; . + .) | length');
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(/^error: --jq: jq ran out of its 256 MiB of memory/);
  await expectJqWorks();
}, 60_000);

it('a syntax error is still a usage error, and jq still works after it', async () => {
  const r = await jq('bad(');
  expect(r.code).toBe(2);
  expect(r.stderr).toMatch(/^error: --jq: syntax error/);
  await expectJqWorks();
});
