// safeCacheDir (src/config/safe-file.ts): the folder code may be cached in, or undefined when another
// local user could steer it (issue 33, item 6): a symlink planted at $XDG_CACHE_HOME/booking-cli, a
// folder others may write to, a parent they could swap it out of, /proc/self; each answered at once.
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
  chownSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { safeCacheDir } from '../../src/config/safe-file';
import { otherUser } from '../helpers/other-user';

const other = otherUser();

describe('safeCacheDir', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'booking-cache-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('makes $XDG_CACHE_HOME/booking-cli 0700 and gives it', () => {
    const xdg = join(root, 'cache');
    expect(safeCacheDir({ XDG_CACHE_HOME: xdg })).toBe(join(xdg, 'booking-cli'));
    expect(lstatSync(join(xdg, 'booking-cli')).mode & 0o777).toBe(0o700);
    // Again: the folder is there, and still fine.
    expect(safeCacheDir({ XDG_CACHE_HOME: xdg })).toBe(join(xdg, 'booking-cli'));
  });

  it('falls back to ~/.cache, and ignores a relative XDG_CACHE_HOME', () => {
    expect(safeCacheDir({ HOME: root })).toBe(join(root, '.cache', 'booking-cli'));
    expect(safeCacheDir({ HOME: root, XDG_CACHE_HOME: 'rel/cache' })).toBe(join(root, '.cache', 'booking-cli'));
  });

  it('refuses a symlink planted where the folder goes, and leaves its target alone', () => {
    const victim = join(root, 'victim');
    mkdirSync(victim, { mode: 0o700 });
    writeFileSync(join(victim, 'precious'), 'x');
    const xdg = join(root, 'shared');
    mkdirSync(xdg, { mode: 0o700 });
    symlinkSync(victim, join(xdg, 'booking-cli'));
    expect(safeCacheDir({ XDG_CACHE_HOME: xdg })).toBeUndefined();
    expect(readdirSync(victim)).toEqual(['precious']);
  });

  it('refuses a folder others may write to, and one in a parent others may write to that is not sticky', () => {
    const open = join(root, 'open');
    mkdirSync(join(open, 'booking-cli'), { recursive: true, mode: 0o700 });
    chmodSync(join(open, 'booking-cli'), 0o777);
    expect(safeCacheDir({ XDG_CACHE_HOME: open })).toBeUndefined();
    const loose = join(root, 'loose');
    mkdirSync(loose, { mode: 0o700 });
    chmodSync(loose, 0o777);
    expect(safeCacheDir({ XDG_CACHE_HOME: loose })).toBeUndefined();
    const sticky = join(root, 'sticky');
    mkdirSync(sticky, { mode: 0o700 });
    chmodSync(sticky, 0o1777);
    expect(safeCacheDir({ XDG_CACHE_HOME: sticky })).toBe(join(sticky, 'booking-cli'));
  });

  it('refuses a file where the folder goes', () => {
    writeFileSync(join(root, 'booking-cli'), 'not a folder');
    expect(safeCacheDir({ XDG_CACHE_HOME: root })).toBeUndefined();
  });

  it('answers at once for /proc/self and other places it cannot use', () => {
    const started = Date.now();
    for (const xdg of ['/proc/self', '/proc/self/fd', '/dev/null', join(root, 'file')]) {
      if (xdg.startsWith(root)) writeFileSync(xdg, '');
      expect(safeCacheDir({ XDG_CACHE_HOME: xdg }), xdg).toBeUndefined();
    }
    expect(existsSync('/proc/self/booking-cli')).toBe(false);
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it.runIf(other)('refuses a folder another user owns', () => {
    const xdg = join(root, 'theirs');
    mkdirSync(join(xdg, 'booking-cli'), { recursive: true, mode: 0o700 });
    chownSync(join(xdg, 'booking-cli'), other!.uid, other!.gid);
    expect(safeCacheDir({ XDG_CACHE_HOME: xdg })).toBeUndefined();
  });
});
