// The config store on real temp folders: reading without conf, writing through it (0600 / 0700),
// malformed files refused and left byte for byte, re-read-and-merge on write, the lock.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { openConfig, openConfigAt } from '../../src/config/store';
import { configFilePath } from '../../src/config/paths';
import { LOCK_TIMINGS, withFileLock } from '../../src/config/lock';
import { UsageError, FailureError } from '../../src/base/errors';
import { skipNote } from '../helpers/skip';

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'booking-store-'));
  path = join(dir, 'cfg', 'config.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const mode = (p: string) => statSync(p).mode & 0o777;
const onDisk = () => JSON.parse(readFileSync(path, 'utf8'));

describe('configFilePath', () => {
  it('BOOKING_CONFIG_DIR when non-empty, else XDG_CONFIG_HOME, else ~/.config', () => {
    expect(configFilePath({ BOOKING_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/c/config.json');
    expect(configFilePath({ BOOKING_CONFIG_DIR: '', XDG_CONFIG_HOME: '/x', HOME: '/h' })).toBe('/x/booking-cli/config.json');
    expect(configFilePath({ XDG_CONFIG_HOME: '', HOME: '/h' })).toBe('/h/.config/booking-cli/config.json');
    // Never the folder the run is in: a relative XDG_CONFIG_HOME is ignored (the XDG spec), an empty or
    // relative HOME gives way to the account's home folder.
    expect(configFilePath({ XDG_CONFIG_HOME: 'rel', HOME: '/h' })).toBe('/h/.config/booking-cli/config.json');
    const account = userInfo().homedir;
    expect(configFilePath({ HOME: '' })).toBe(join(account, '.config/booking-cli/config.json'));
    expect(configFilePath({ HOME: 'rel', XDG_CONFIG_HOME: '.' })).toBe(join(account, '.config/booking-cli/config.json'));
  });

  it('openConfig uses it', async () => {
    expect((await openConfig({ BOOKING_CONFIG_DIR: dir })).path).toBe(join(dir, 'config.json'));
  });
});

describe('reading', () => {
  it('a missing or blank file is an empty config, and reading creates nothing', () => {
    const store = openConfigAt(path);
    expect(store.profileNames()).toEqual([]);
    expect(store.getProfile('default')).toEqual({});
    expect(existsSync(join(dir, 'cfg'))).toBe(false);
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(path, '\n');
    expect(openConfigAt(path).getProfile('default')).toEqual({});
  });

  it('returns the known settings of a profile, ignoring other keys', () => {
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(path, JSON.stringify({ profiles: { work: { baseUrl: 'https://w', apiKey: 'k', cursorPath: 'meta.c', future: 1 } } }));
    const store = openConfigAt(path);
    expect(store.profileNames()).toEqual(['work']);
    expect(store.getProfile('work')).toEqual({ baseUrl: 'https://w', apiKey: 'k', cursorPath: 'meta.c' });
  });

  it('profile names that are Object.prototype members are just names', async () => {
    const store = openConfigAt(path);
    expect(store.getProfile('constructor')).toEqual({});
    expect(store.getProfile('toString')).toEqual({});
    await store.setValues('constructor', { baseUrl: 'https://c' });
    expect(openConfigAt(path).getProfile('constructor')).toEqual({ baseUrl: 'https://c' });
    expect(openConfigAt(path).getProfile('hasOwnProperty')).toEqual({});
  });

  const malformed: [string, string][] = [
    ['truncated JSON', '{"profiles": {"default": {"apiKey": "sk_secret_1"}'],
    ['a bad token', '{"profiles": x}'],
    ['an array', '[1, 2]'],
    ['a string', '"hello"'],
    ['profiles not an object', '{"profiles": []}'],
    ['a profile not an object', '{"profiles": {"default": "sk_secret_1"}}'],
    ['a setting not a string', '{"profiles": {"default": {"apiKey": 12}}}'],
  ];
  for (const [what, text] of malformed) {
    it(`a file with ${what} is a UsageError naming the path, and is never written over`, async () => {
      mkdirSync(join(dir, 'cfg'));
      writeFileSync(path, text);
      const store = openConfigAt(path);
      expect(store.path).toBe(path);
      expect(() => store.getProfile('default')).toThrow(UsageError);
      expect(() => store.profileNames()).toThrow(path);
      await expect(store.setValues('default', { apiKey: 'new' })).rejects.toThrow(UsageError);
      await expect(store.unsetKeys('default', ['apiKey'])).rejects.toThrow(path);
      expect(readFileSync(path, 'utf8')).toBe(text);
    });
  }

  it('the message never quotes the file (the key could be in it)', () => {
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(path, '{"profiles": {"default": {"apiKey": sk_secret_2}}}');
    try {
      openConfigAt(path).getProfile('default');
      expect.unreachable();
    } catch (err) {
      expect((err as Error).message).not.toContain('sk_secret');
      expect((err as Error).message).toContain('line 1, column');
      expect((err as Error).message).not.toMatch(/\n/);
    }
  });
});

describe('writing', () => {
  it('creates the folder 0700 and the file 0600, pretty JSON', async () => {
    await openConfigAt(path).setValues('default', { baseUrl: 'https://a', apiKey: 'k1' });
    expect(mode(join(dir, 'cfg'))).toBe(0o700);
    expect(mode(path)).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe(
      '{\n  "profiles": {\n    "default": {\n      "baseUrl": "https://a",\n      "apiKey": "k1"\n    }\n  }\n}\n',
    );
    expect(existsSync(`${path}.lock`)).toBe(false);
  });

  it('narrows an existing folder and file to 0700 / 0600', async () => {
    mkdirSync(join(dir, 'cfg'), { mode: 0o755 });
    chmodSync(join(dir, 'cfg'), 0o755);
    writeFileSync(path, '{}', { mode: 0o644 });
    await openConfigAt(path).setValues('default', { apiKey: 'k' });
    expect(mode(join(dir, 'cfg'))).toBe(0o700);
    expect(mode(path)).toBe(0o600);
  });

  it("merges into what is on disk now, keeping unknown keys and other writers' changes", async () => {
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(path, JSON.stringify({ version: 2, profiles: { default: { baseUrl: 'https://a', extra: true } } }));
    const mine = openConfigAt(path);
    expect(mine.getProfile('default').baseUrl).toBe('https://a');
    // Another process saves after this one has read.
    await openConfigAt(path).setValues('other', { apiKey: 'theirs' });
    await mine.setValues('default', { apiKey: 'mine' });
    expect(onDisk()).toEqual({
      version: 2,
      profiles: { default: { baseUrl: 'https://a', extra: true, apiKey: 'mine' }, other: { apiKey: 'theirs' } },
    });
    expect(mine.getProfile('other')).toEqual({ apiKey: 'theirs' });
  });

  it('a file saved with a UTF-8 byte order mark is read, and rewritten without it, nothing lost', async () => {
    mkdirSync(join(dir, 'cfg'));
    writeFileSync(path, `\uFEFF${JSON.stringify({ profiles: { default: { baseUrl: 'https://a', extra: 1 } } })}`);
    const store = openConfigAt(path);
    expect(store.getProfile('default').baseUrl).toBe('https://a');
    await store.setValues('default', { apiKey: 'k' });
    expect(readFileSync(path, 'utf8').charCodeAt(0)).toBe(0x7b);
    expect(onDisk()).toEqual({ profiles: { default: { baseUrl: 'https://a', extra: 1, apiKey: 'k' } } });
  });

  it('unset removes keys, drops an emptied profile, and writes nothing when there is nothing to remove', async () => {
    const store = openConfigAt(path);
    await store.unsetKeys('default', ['apiKey']);
    expect(existsSync(path)).toBe(false);
    await store.setValues('default', { baseUrl: 'https://a', apiKey: 'k' });
    await store.unsetKeys('default', ['apiKey']);
    expect(onDisk().profiles.default).toEqual({ baseUrl: 'https://a' });
    await store.unsetKeys('default', ['baseUrl']);
    expect(onDisk()).toEqual({ profiles: {} });
    expect(store.profileNames()).toEqual([]);
  });

  it('undefined values are not written', async () => {
    const store = openConfigAt(path);
    await store.setValues('default', { apiKey: undefined });
    expect(existsSync(path)).toBe(false);
  });

  const root = process.getuid?.() === 0;
  it.skipIf(root)(skipNote('an unwritable folder is a one-line failure', root ? 'root writes into any folder' : undefined), async () => {
    mkdirSync(join(dir, 'cfg'), { mode: 0o500 });
    await expect(openConfigAt(path).setValues('default', { apiKey: 'k' })).rejects.toThrow(FailureError);
  });

  it('a file where the folder should be is a usage error naming the path (as root too)', async () => {
    writeFileSync(join(dir, 'cfg'), 'not a folder');
    const saving = openConfigAt(path).setValues('default', { apiKey: 'k' });
    await expect(saving).rejects.toThrow(UsageError);
    await expect(saving).rejects.toThrow(`cannot read the config file ${path}: a part of its path is not a folder.`);
  });
});

describe('withFileLock', () => {
  it('runs holders one after another', async () => {
    const lock = join(dir, 'x.lock');
    const order: string[] = [];
    const hold = (name: string) =>
      withFileLock(lock, async () => {
        order.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 30));
        order.push(`${name}-`);
      });
    await Promise.all([hold('a'), hold('b'), hold('c')]);
    for (let i = 0; i < order.length; i += 2) expect(order[i]!.slice(0, 1)).toBe(order[i + 1]!.slice(0, 1));
    expect(existsSync(lock)).toBe(false);
  });

  it('breaks a stale lock, and gives up on a live one with a message naming it', async () => {
    const lock = join(dir, 'y.lock');
    // Held by a live process (this one): waited for, then refused.
    writeFileSync(lock, `${process.pid}\n`);
    await expect(withFileLock(lock, () => 'late', { waitMs: 50, staleMs: 60_000 })).rejects.toThrow(
      /locked by another booking process .*y\.lock/,
    );
    const old = (Date.now() - 120_000) / 1000;
    utimesSync(lock, old, old);
    await expect(withFileLock(lock, () => 'got it', { waitMs: 50, staleMs: 60_000 })).resolves.toBe('got it');
    expect(existsSync(lock)).toBe(false);
  });

  it('a live lock is reported at the end of the wait, never broken by it: the wait is shorter than the stale age', async () => {
    expect(LOCK_TIMINGS.waitMs).toBeLessThan(LOCK_TIMINGS.staleMs);
    const lock = join(dir, 'w.lock');
    writeFileSync(lock, `${process.pid}\n`);
    // The defaults' proportions, scaled down: waited 50 ms, not stale before 150 ms.
    await expect(withFileLock(lock, () => 'taken', { waitMs: 50, staleMs: 150 })).rejects.toThrow(/locked by another booking process/);
    expect(existsSync(lock)).toBe(true);
  });

  it('a fresh lock left by a process that is gone is broken at once, not waited out', async () => {
    const lock = join(dir, 'z.lock');
    const gone = spawnSync(process.execPath, ['-e', '0']).pid;
    writeFileSync(lock, `${gone}\n`);
    await expect(withFileLock(lock, () => 'got it', { waitMs: 50, staleMs: 60_000 })).resolves.toBe('got it');
    // Being written (no pid yet): a live lock, waited for.
    writeFileSync(lock, '');
    await expect(withFileLock(lock, () => 'late', { waitMs: 50, staleMs: 60_000 })).rejects.toThrow(/locked by another booking process/);
  });
});
