// V8 accepts a code cache made from any source of the same length and runs the code in it. A cache
// planted where another user can write (or owned by them, or a symlink) must never be loaded: the
// run goes on without it, silently, and writes nothing there.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, chownSync, cpSync, existsSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { ROOT, cleanEnv, runCli, tempConfigDir } from '../helpers/cli';
import { NO_OTHER_USER, otherUser } from '../helpers/other-user';
import { skipNote } from '../helpers/skip';

const intruder = otherUser();

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

/**
 * A cache home with a real cache for `config path` in it, then replaced by a planted one: compiled
 * (under the flags bin/booking.js sets) from a bundle of the same length that only writes a marker
 * into the cache home it runs under. Made once per file (two processes and a compile of the whole
 * bundle); each test gets its own copy, modes kept.
 */
let template: { dir: string; folder: string; cache: string } | undefined;
const templateHome = tempConfigDir();
afterAll(() => templateHome.cleanup());
async function makeTemplate(): Promise<NonNullable<typeof template>> {
  const d = templateHome;
  const first = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: d.dir } });
  expect(first.code, first.stderr).toBe(0);
  const root = join(d.dir, 'booking-cli');
  const folder = readdirSync(root)[0]!;
  const cache = readdirSync(join(root, folder)).find((n) => n.endsWith('-config-path.v8cache'))!;
  // The bundle `config path` runs: the command's own (scripts/bundle/command-bundles.mjs).
  const bundle = join(ROOT, 'dist', 'cli-config-path.cjs');
  const plant = `
    require('node:v8').setFlagsFromString('--liftoff-only --no-minor-gc-task --semi-space-growth-factor=1');
    const fs = require('node:fs');
    const real = fs.readFileSync(${JSON.stringify(bundle)}, 'latin1');
    const head = real.slice(0, real.indexOf('\\n') + 1);
    let evil = head + '(function (exports, require) { require("node:fs").writeFileSync(process.env.XDG_CACHE_HOME + "/attacker-code-ran", "ran"); process.exit(0); })';
    evil += '/*' + ' '.repeat(real.length - evil.length - 4) + '*/';
    const script = new (require('node:vm').Script)(evil, { filename: ${JSON.stringify(bundle)} });
    // The file's first line (bin/booking.js): the format, and node's modules to load before the flags.
    fs.writeFileSync(${JSON.stringify(join(root, folder, cache))}, Buffer.concat([Buffer.from('booking-code-cache 1 \\n'), script.createCachedData()]));
  `;
  execFileSync(process.execPath, ['-e', plant], { env: cleanEnv() });
  return { dir: d.dir, folder, cache };
}

async function plantedCache() {
  template ??= await makeTemplate();
  const d = tempConfigDir();
  dirs.push(d);
  cpSync(template.dir, d.dir, { recursive: true });
  const root = join(d.dir, 'booking-cli');
  const folder = join(root, template.folder);
  const cache = join(folder, template.cache);
  // The copy keeps the template's modes: a private folder and file, as the CLI made them.
  for (const [from, to] of [
    [join(template.dir, 'booking-cli'), root],
    [join(template.dir, 'booking-cli', template.folder), folder],
    [join(template.dir, 'booking-cli', template.folder, template.cache), cache],
  ])
    chmodSync(to!, statSync(from!).mode & 0o7777);
  const env = { XDG_CACHE_HOME: d.dir };
  return { env, root, folder, cache, marker: join(d.dir, 'attacker-code-ran'), planted: readFileSync(cache) };
}

/**
 * Two runs ignored the planted cache: normal output, no attacker code. In a folder that is not
 * private nothing is written either; in a private one the run may put a cache of its own in its place.
 */
async function expectIgnored(p: Awaited<ReturnType<typeof plantedCache>>, opts: { untouched?: string } = {}): Promise<void> {
  for (let run = 0; run < 2; run++) {
    const r = await runCli(['config', 'path'], { env: p.env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/config\.json\n$/);
    expect(r.stderr).toBe('');
    expect(existsSync(p.marker), 'the planted code ran').toBe(false);
  }
  if (opts.untouched) expect(readFileSync(opts.untouched).equals(p.planted), 'nothing was written over it').toBe(true);
}

describe('a planted code cache', () => {
  it('(control) in a private folder of my own it is loaded: the planting works, so the refusals below mean something', async () => {
    const p = await plantedCache();
    await runCli(['config', 'path'], { env: p.env });
    expect(existsSync(p.marker)).toBe(true);
  });

  it('a cache folder others can write (0777): never loaded', async () => {
    const p = await plantedCache();
    chmodSync(p.folder, 0o777);
    await expectIgnored(p, { untouched: p.cache });
  });

  it('booking-cli/ writable by others (0777): never loaded', async () => {
    const p = await plantedCache();
    chmodSync(p.root, 0o777);
    await expectIgnored(p, { untouched: p.cache });
  });

  it('a cache file others can write (0666): never loaded', async () => {
    const p = await plantedCache();
    chmodSync(p.cache, 0o666);
    await expectIgnored(p);
  });

  it('a cache file that is a symlink: never loaded', async () => {
    const p = await plantedCache();
    const elsewhere = join(p.env.XDG_CACHE_HOME, 'elsewhere.v8cache');
    renameSync(p.cache, elsewhere);
    symlinkSync(elsewhere, p.cache);
    await expectIgnored(p, { untouched: elsewhere });
  });

  describe.skipIf(!intruder)(skipNote('owned by another local user', intruder ? undefined : NO_OTHER_USER), () => {
    it('their folder (0755): never loaded, nothing written into it', async () => {
      const p = await plantedCache();
      chownSync(p.folder, intruder!.uid, intruder!.gid);
      await expectIgnored(p, { untouched: p.cache });
    });

    it('their cache file (0644) in my folder: never loaded', async () => {
      const p = await plantedCache();
      chownSync(p.cache, intruder!.uid, intruder!.gid);
      await expectIgnored(p);
    });
  });

  it('a cache is named by the sha256 of the bundles (scripts/build.mjs), not their length', () => {
    // The whole program's, then each command's in the order of dist/command-facts.json: one build id.
    const { bundles } = JSON.parse(readFileSync(join(ROOT, 'dist', 'command-facts.json'), 'utf8')) as { bundles: string[] };
    const hash = createHash('sha256');
    const ids = new Set<string | undefined>();
    for (const file of ['cli.cjs', ...bundles.map((command) => `cli-${command.replace(' ', '-')}.cjs`)]) {
      const bundle = readFileSync(join(ROOT, 'dist', file), 'latin1');
      ids.add(/^\/\/ booking-cli build ([0-9a-f]{16})\n/.exec(bundle)?.[1]);
      hash.update(bundle.slice(bundle.indexOf('{') + 1, bundle.lastIndexOf('\n})\n')), 'latin1');
    }
    expect([...ids]).toEqual([hash.digest('hex').slice(0, 16)]);
  });
});
