// `booking config …` and the config file as a user meets them: spawned processes, a throwaway
// BOOKING_CONFIG_DIR, file modes, malformed files left alone, env overrides, concurrent writers.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

let tmp: ReturnType<typeof tempConfigDir>;
let dir: string;
let file: string;
beforeEach(() => {
  tmp = tempConfigDir();
  // A folder that does not exist yet, so the test sees booking create it.
  dir = join(tmp.dir, 'booking');
  file = join(dir, 'config.json');
});
afterEach(() => tmp.cleanup());

const env = (extra: Record<string, string> = {}) => ({ BOOKING_CONFIG_DIR: dir, ...extra });
const booking = (args: string[], extra: Record<string, string> = {}) => runMain(args, { env: env(extra) });
const mode = (p: string) => statSync(p).mode & 0o777;

describe('config set/get/unset/list', () => {
  it('saves to a 0600 file in a 0700 folder, and reads it back', async () => {
    expect((await booking(['config', 'set', 'base-url', 'https://api.example.com/'])).code).toBe(0);
    expect((await booking(['config', 'set', 'api_key', 'sk_live_secret_abcd'])).code).toBe(0);
    expect(mode(dir)).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { baseUrl: 'https://api.example.com', apiKey: 'sk_live_secret_abcd' } },
    });

    const list = await booking(['config', 'list']);
    expect(list).toMatchObject({ code: 0, stdout: 'baseUrl\thttps://api.example.com\napiKey\t****abcd\n' });
    expect(list.stdout + list.stderr).not.toContain('secret');
    const json = await booking(['config', 'list', '--json']);
    expect(JSON.parse(json.stdout)).toEqual({ baseUrl: 'https://api.example.com', apiKey: '****abcd' });

    expect(await booking(['config', 'get', 'apiKey'])).toMatchObject({ code: 0, stdout: 'sk_live_secret_abcd\n' });
    expect(await booking(['config', 'get', 'cursorPath'])).toMatchObject({ code: 0, stdout: '' });

    expect((await booking(['config', 'unset', 'apiKey'])).code).toBe(0);
    expect(await booking(['config', 'get', 'api-key'])).toMatchObject({ code: 0, stdout: '' });
    expect(mode(file)).toBe(0o600);
  });

  it('--profile and BOOKING_PROFILE pick the profile', async () => {
    await booking(['config', 'set', 'itemsPath', 'data.rows', '--profile', 'work']);
    expect((await booking(['config', 'get', 'itemsPath'], { BOOKING_PROFILE: 'work' })).stdout).toBe('data.rows\n');
    expect((await booking(['--profile', 'work', 'config', 'get', 'items-path'])).stdout).toBe('data.rows\n');
    expect((await booking(['config', 'get', 'itemsPath'])).stdout).toBe('');
    // Empty is no choice, as with BOOKING_BASE_URL: the default profile.
    await booking(['config', 'set', 'itemsPath', 'items']);
    expect(await booking(['config', 'get', 'itemsPath'], { BOOKING_PROFILE: '' })).toMatchObject({ code: 0, stdout: 'items\n' });
  });

  it('bad keys and values are exit 2 with one line (and a usage line for a missing value), nothing written', async () => {
    for (const args of [
      ['config', 'set', 'colour', 'red'],
      ['config', 'set', 'baseUrl', 'api.example.com'],
      ['config', 'get', 'nope'],
      ['config', 'unset', 'x'],
      ['config', 'set', 'baseUrl'],
    ]) {
      const r = await booking(args);
      expect(r.code, args.join(' ')).toBe(2);
      // One line; a missing argument adds the command's usage line (a pointer, not more message).
      const lines = r.stderr.trimEnd().split('\n');
      expect(lines.slice(0, 1).concat(lines.slice(1).filter((l) => !l.startsWith('usage: booking config '))), args.join(' ')).toHaveLength(
        1,
      );
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect((await booking(['config', 'set', 'nope', 'x'])).stderr).toContain('baseUrl, apiKey, cursorPath, itemsPath');
    expect(existsSync(file)).toBe(false);
  });

  it('a plain http:// base URL to another host is refused as login refuses it, unless --allow-http', async () => {
    const refused = await booking(['config', 'set', 'baseUrl', 'http://api.example.com']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: refusing plain http:\/\/ to api\.example\.com/);
    expect(existsSync(file)).toBe(false);
    expect((await booking(['config', 'set', 'baseUrl', 'http://127.0.0.1:4010'])).code).toBe(0);
    expect((await booking(['config', 'set', 'baseUrl', 'http://api.example.com', '--allow-http'])).code).toBe(0);
    expect((await booking(['config', 'get', 'baseUrl'])).stdout).toBe('http://api.example.com\n');
  });

  it('config path follows BOOKING_CONFIG_DIR, else XDG_CONFIG_HOME, else HOME', async () => {
    expect((await booking(['config', 'path'])).stdout).toBe(`${file}\n`);
    const xdg = await runMain(['config', 'path'], { env: { XDG_CONFIG_HOME: tmp.dir } });
    expect(xdg.stdout).toBe(`${join(tmp.dir, 'booking-cli', 'config.json')}\n`);
    const home = await runMain(['config', 'path'], { env: { XDG_CONFIG_HOME: '', HOME: tmp.dir } });
    expect(home.stdout).toBe(`${join(tmp.dir, '.config', 'booking-cli', 'config.json')}\n`);
  });

  it('list notes the env variables that override the profile', async () => {
    await booking(['config', 'set', 'baseUrl', 'https://a.example']);
    const r = await booking(['config', 'list'], { BOOKING_API_KEY: 'sk_env', BOOKING_BASE_URL: 'https://b.example' });
    expect(r.stdout).toBe('baseUrl\thttps://a.example\n');
    expect(r.stderr).toContain('BOOKING_API_KEY is set');
    expect(r.stderr).toContain('BOOKING_BASE_URL is set');
  });
});

describe('a malformed config file', () => {
  const broken = '{"profiles": {"default": {"baseUrl": "https://a.example", "apiKey": "sk_secret_zz"}}';
  beforeEach(() => {
    mkdirSync(dir, { mode: 0o700 });
    writeFileSync(file, broken, { mode: 0o600 });
  });

  const commands: [string[], string?][] = [
    [['config', 'list']],
    [['config', 'get', 'baseUrl']],
    [['config', 'set', 'baseUrl', 'https://b.example']],
    [['config', 'unset', 'apiKey']],
    [['logout']],
    [['login', '--with-key', '--no-verify', '--base-url', 'https://b.example'], 'sk_new'],
    [['bookings', 'list']],
  ];
  for (const [args, stdin] of commands) {
    it(`${args.join(' ')}: exit 2 naming the path, the file kept byte for byte`, async () => {
      const r = await runMain(args, { env: env(), stdin });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(file);
      expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toContain('sk_secret');
      expect(readFileSync(file, 'utf8')).toBe(broken);
      expect(existsSync(`${file}.lock`)).toBe(false);
    });
  }

  it('config path still says where it is', async () => {
    expect(await booking(['config', 'path'])).toMatchObject({ code: 0, stdout: `${file}\n` });
  });
});

describe('two processes writing at once', () => {
  it('leave valid JSON with every change in it', async () => {
    const profiles = ['p1', 'p2', 'p3', 'p4'];
    for (let round = 0; round < 3; round++) {
      const results = await Promise.all(profiles.map((p) => booking(['config', 'set', 'cursorPath', `c.${p}.${round}`, '--profile', p])));
      for (const r of results) expect(r.code, r.stderr).toBe(0);
      const data = JSON.parse(readFileSync(file, 'utf8'));
      for (const p of profiles) expect(data.profiles[p]).toEqual({ cursorPath: `c.${p}.${round}` });
    }
    expect(mode(file)).toBe(0o600);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
