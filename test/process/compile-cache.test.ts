// Node's compile cache (node 22.1+), which bin/booking.js turns on in $XDG_CACHE_HOME/booking-cli:
// node loads what it finds there as compiled code, so the folder is used only when it is the user's
// own, a real folder, and writable by no one else, in a parent no one else can swap it in. Anything
// else: the run goes on without a cache, silently, and writes nothing there. On node 20 (no compile
// cache) nothing is ever written: there bin/booking.js never asks where the cache would go
// (compile-cache-dir.js), so the cases of a folder not used could not fail; they run on 22.1+ only
// (six starts fewer on node 20, ~0.5 s of CPU), and node 20 keeps its own case.
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, statSync, symlinkSync } from 'node:fs';
import * as nodeModule from 'node:module';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, tempConfigDir } from '../helpers/cli';
import { NO_OTHER_USER, otherUser } from '../helpers/other-user';

// @types/node is 20's, which has no enableCompileCache: asked of the running node.
const HAS_COMPILE_CACHE = typeof (nodeModule as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const intruder = otherUser();
if (!intruder) console.warn(`compile-cache: ${NO_OTHER_USER}`);

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function cacheHome() {
  const d = tempConfigDir();
  dirs.push(d);
  return { home: d.dir, root: join(d.dir, 'booking-cli') };
}

/** Every file under `dir`, recursively (none when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

/** One `config path` run, as a user would: exit 0, the path, nothing on stderr. */
async function runConfigPath(env: Record<string, string>) {
  const r = await runCli(['config', 'path'], { env });
  expect(r.code, r.stderr).toBe(0);
  expect(r.stdout).toMatch(/config\.json\n$/);
  expect(r.stderr).toBe('');
}

describe('the compile cache', () => {
  it.runIf(HAS_COMPILE_CACHE)('is written after a run, in booking-cli/ made private (0700)', async () => {
    const { home, root } = cacheHome();
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(statSync(root).mode & 0o777).toBe(0o700);
    expect(filesUnder(root).length).toBeGreaterThan(0);
  });

  it.runIf(!HAS_COMPILE_CACHE)('on a node without one (20), nothing is written', async () => {
    const { home, root } = cacheHome();
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(existsSync(root)).toBe(false);
  });

  it.runIf(HAS_COMPILE_CACHE)("NODE_DISABLE_COMPILE_CACHE turns it off, as it does node's", async () => {
    const { home, root } = cacheHome();
    await runConfigPath({ XDG_CACHE_HOME: home, NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(filesUnder(root)).toEqual([]);
  });

  it.runIf(HAS_COMPILE_CACHE)('booking-cli/ as a symlink to another folder: not followed, nothing written there', async () => {
    const { home, root } = cacheHome();
    const elsewhere = join(home, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o700 });
    symlinkSync(elsewhere, root);
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(filesUnder(elsewhere)).toEqual([]);
  });

  it.runIf(HAS_COMPILE_CACHE)('booking-cli/ writable by others (0777): not used', async () => {
    const { home, root } = cacheHome();
    mkdirSync(root);
    chmodSync(root, 0o777);
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(filesUnder(root)).toEqual([]);
  });

  it.runIf(HAS_COMPILE_CACHE)('a cache home others can write that is not sticky (0777, as a shared folder): not used', async () => {
    const { home, root } = cacheHome();
    chmodSync(home, 0o777);
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(filesUnder(root)).toEqual([]);
  });

  it.runIf(HAS_COMPILE_CACHE)('a cache home where no folder can be made (/proc/self): the run goes on, at once', async () => {
    const started = Date.now();
    await runConfigPath({ XDG_CACHE_HOME: '/proc/self' });
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it.runIf(HAS_COMPILE_CACHE && intruder !== null)('booking-cli/ owned by another local user: not used', async () => {
    const { home, root } = cacheHome();
    mkdirSync(root, { mode: 0o755 });
    chownSync(root, intruder!.uid, intruder!.gid);
    await runConfigPath({ XDG_CACHE_HOME: home });
    expect(filesUnder(root)).toEqual([]);
  });
});
