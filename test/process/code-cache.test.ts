// The V8 code cache bin/booking.js keeps in the user's cache folder: one folder per node version,
// architecture and install, written private, and folders of installs that are gone cleaned away.
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, runCli, tempConfigDir } from '../helpers/cli';

const dirs: { cleanup(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) d.cleanup();
});

function cacheHome() {
  const d = tempConfigDir();
  dirs.push(d);
  return { home: d.dir, root: join(d.dir, 'booking-cli') };
}

/** The cache file one successful `config path` run leaves, its first line and V8's bytes. */
async function cacheOfOneRun() {
  const { home, root } = cacheHome();
  expect((await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: home } })).code).toBe(0);
  const dir = join(root, readdirSync(root)[0]!);
  const file = join(dir, readdirSync(dir).find((n) => n.endsWith('.v8cache'))!);
  const bytes = readFileSync(file);
  return { home, file, head: bytes.toString('latin1', 0, bytes.indexOf(10)), data: bytes.subarray(bytes.indexOf(10) + 1) };
}

describe('code cache', () => {
  it('is written after a successful run, private, in a folder that names its install', async () => {
    const { home, root } = cacheHome();
    const r = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const [folder, ...others] = readdirSync(root);
    expect(others).toEqual([]);
    expect(folder).toMatch(new RegExp(`^${process.version}-${process.arch}-[0-9a-f]{8}$`));
    const dir = join(root, folder!);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(readFileSync(join(dir, 'install'), 'utf8')).toBe(`${join(BIN, '..')}\n`);
    const caches = readdirSync(dir).filter((n) => n.endsWith('.v8cache'));
    expect(caches).toHaveLength(1);
    expect(caches[0]).toMatch(/^[0-9a-f]{16}-config-path\.v8cache$/);
    expect(statSync(join(dir, caches[0]!)).mode & 0o777).toBe(0o600);
    // Its first line names node's modules the run loaded after V8's flags were set (bin/booking.js),
    // padded with spaces so that V8's bytes start 8-aligned (V8 copies a cache that does not).
    const head = readFileSync(join(dir, caches[0]!), 'latin1').split('\n', 1)[0]!;
    expect(head).toMatch(/^booking-code-cache 1 ([a-z_][a-z0-9_/]*(,[a-z_][a-z0-9_/]*)*)? *$/);
    expect((head.length + 1) % 8).toBe(0);
    expect(head.trimEnd().length + 8).toBeGreaterThan(head.length);
  });

  it('a cache that names modules node does not have, or paths, still runs (they are skipped)', async () => {
    const { home, file, data } = await cacheOfOneRun();
    writeFileSync(file, Buffer.concat([Buffer.from('booking-code-cache 1 no_such_module,../../x,/etc/passwd,net\n'), data]));
    const r = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/config\.json\n$/);
    expect(r.stderr).toBe('');
  });

  it("a cache's first line gains node's modules a later run loaded after the flags; its code is kept", async () => {
    const { home, file, head, data } = await cacheOfOneRun();
    expect(head).not.toBe('booking-code-cache 1 ');
    // As if made by a run that had loaded every one of them before the flags (another kind of stdout).
    writeFileSync(file, Buffer.concat([Buffer.from('booking-code-cache 1 \n'), data]), { mode: 0o600 });
    const r = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    const after = readFileSync(file);
    expect(after.toString('latin1', 0, after.indexOf(10))).toBe(head);
    expect(after.subarray(after.indexOf(10) + 1).equals(data)).toBe(true);
  });

  it('removes the folders of installs that are gone, and keeps the others', async () => {
    const { home, root } = cacheHome();
    const make = (name: string, install?: string) => {
      mkdirSync(join(root, name), { recursive: true });
      writeFileSync(join(root, name, 'x-whoami.v8cache'), 'old');
      if (install !== undefined) writeFileSync(join(root, name, 'install'), `${install}\n`);
    };
    make(`${process.version}-${process.arch}-00000001`, join(home, 'a-deleted-checkout', 'bin'));
    make(`${process.version}-${process.arch}-00000002`, home); // an install that is still there
    make('an-older-layout'); // no marker: left alone
    const r = await runCli(['config', 'path'], { env: { XDG_CACHE_HOME: home } });
    expect(r.code, r.stderr).toBe(0);
    expect(existsSync(join(root, `${process.version}-${process.arch}-00000001`))).toBe(false);
    expect(existsSync(join(root, `${process.version}-${process.arch}-00000002`))).toBe(true);
    expect(existsSync(join(root, 'an-older-layout'))).toBe(true);
  });
});
