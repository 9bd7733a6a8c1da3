// Many writes from two processes at once, through the real store (bundled once with esbuild): every
// read in between sees valid JSON, and no process's change is lost (the lock around read-modify-write).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { ROOT, tempConfigDir } from '../helpers/cli';

const WRITES = 60;
let tmp: ReturnType<typeof tempConfigDir>;
let script: string;

beforeAll(async () => {
  tmp = tempConfigDir();
  const bundle = join(tmp.dir, 'store.mjs');
  await build({
    entryPoints: [join(ROOT, 'src/config/store.ts')],
    outfile: bundle,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'silent',
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    nodePaths: [join(ROOT, 'node_modules')],
  });
  script = join(tmp.dir, 'writer.mjs');
  writeFileSync(
    script,
    `import { openConfigAt } from ${JSON.stringify(bundle)};
const [path, profile, n] = process.argv.slice(2);
for (let i = 0; i < Number(n); i++) await openConfigAt(path).setValues(profile, { ['k' + i]: String(i), cursorPath: 'c' + i });
`,
  );
});
afterAll(() => tmp.cleanup());

function writer(path: string, profile: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, path, profile, String(WRITES)], { stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

it('two processes saving at once: always valid JSON, nothing lost', async () => {
  const path = join(tmp.dir, 'cfg', 'config.json');
  let done = false;
  let reads = 0;
  const reader = (async () => {
    while (!done) {
      if (existsSync(path)) {
        expect(() => JSON.parse(readFileSync(path, 'utf8'))).not.toThrow();
        reads++;
      }
      await new Promise((r) => setImmediate(r));
    }
  })();
  const codes = await Promise.all([writer(path, 'a'), writer(path, 'b')]);
  done = true;
  await reader;
  expect(codes).toEqual([0, 0]);
  expect(reads).toBeGreaterThan(0);
  const data = JSON.parse(readFileSync(path, 'utf8'));
  for (const p of ['a', 'b']) {
    expect(data.profiles[p].cursorPath).toBe(`c${WRITES - 1}`);
    for (let i = 0; i < WRITES; i++) expect(data.profiles[p][`k${i}`]).toBe(String(i));
  }
});
