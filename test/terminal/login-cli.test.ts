// login and logout as a user runs them: spawned CLI, a loopback /api/v1/me that takes one key, keys
// from stdin (--with-key) and from the hidden prompt on a pseudo-terminal.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCliTty, tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';

// It answers /api/v1/me with 200 {"data": {"name": "Test Owner", …}} for this key only, 401 otherwise.
const GOOD = 'sk_test_login_4321';
let server: ShapeServer;
let base: string;
const seen = () => server.requests.map((r) => `${r.url} ${r.authorization ?? ''}`);

beforeAll(async () => {
  server = await startShapeServer({ shape: 'data-meta', apiKey: GOOD });
  base = server.url;
});
afterAll(() => server.close());

let tmp: ReturnType<typeof tempConfigDir>;
let file: string;
beforeEach(() => {
  tmp = tempConfigDir();
  file = join(tmp.dir, 'cfg', 'config.json');
  server.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const env = (extra: Record<string, string> = {}) => ({ BOOKING_CONFIG_DIR: join(tmp.dir, 'cfg'), ...extra });
const saved = () => JSON.parse(readFileSync(file, 'utf8')).profiles;

describe('login --with-key', () => {
  it('checks a good key with GET /api/v1/me, saves it (0600), and says who it belongs to', async () => {
    const r = await runMain(['login', '--with-key', '--base-url', base], { env: env(), stdin: `${GOOD}\n` });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(
      'warning: no OS keyring (no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set); the key is saved in plain text in ' +
        `${file} (mode 0600).\nLogged in to ${base} (profile default) as Test Owner <owner@example.com>; key saved in ${file}.\n`,
    );
    expect(seen()).toEqual([`/api/v1/me Bearer ${GOOD}`]);
    expect(saved()).toEqual({ default: { baseUrl: base, apiKey: GOOD } });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(tmp.dir, 'cfg')).mode & 0o777).toBe(0o700);

    // The saved profile now serves other commands.
    const me = await runMain(['api', '/api/v1/me'], { env: env() });
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).data.name).toBe('Test Owner');
  });

  it('a rejected key is exit 3 and not saved; an earlier key stays', async () => {
    const bad = await runMain(['login', '--with-key', '--base-url', base], { env: env(), stdin: 'sk_wrong\n' });
    expect(bad.code).toBe(3);
    expect(bad.stderr).toContain('401');
    expect(bad.stderr).not.toContain('sk_wrong');
    expect(existsSync(file)).toBe(false);

    await runMain(['login', '--with-key', '--base-url', base], { env: env(), stdin: GOOD });
    const again = await runMain(['login', '--with-key'], { env: env(), stdin: 'sk_wrong_again' });
    expect(again.code).toBe(3);
    expect(saved().default.apiKey).toBe(GOOD);
  });

  it('--base-url is taken from BOOKING_BASE_URL or the saved profile, and goes after the command too', async () => {
    expect((await runMain(['login', '--with-key'], { env: env({ BOOKING_BASE_URL: base }), stdin: GOOD })).code).toBe(0);
    expect((await runMain(['login', '--with-key', '--profile', 'p2'], { env: env(), stdin: GOOD })).code).toBe(3);
    expect((await runMain(['--profile', 'p2', 'login', '--with-key', '--base-url', base], { env: env(), stdin: GOOD })).code).toBe(0);
    expect((await runMain(['login', '--with-key'], { env: env(), stdin: GOOD })).code).toBe(0);
    expect(saved()).toEqual({ default: { baseUrl: base, apiKey: GOOD }, p2: { baseUrl: base, apiKey: GOOD } });
  });

  it('no base URL anywhere: exit 3 with the hint', async () => {
    const r = await runMain(['login', '--with-key'], { env: env(), stdin: GOOD });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('run: booking login --base-url URL');
  });

  it('--no-verify saves without a request', async () => {
    const r = await runMain(['login', '--with-key', '--no-verify', '--base-url', base], { env: env(), stdin: 'sk_unchecked\n' });
    expect(r.code, r.stderr).toBe(0);
    expect(seen()).toEqual([]);
    expect(saved().default).toEqual({ baseUrl: base, apiKey: 'sk_unchecked' });
  });

  it('an empty key, or no terminal and no --with-key, is exit 2 and nothing is saved', async () => {
    const empty = await runMain(['login', '--with-key', '--base-url', base], { env: env(), stdin: '\n' });
    expect(empty.code).toBe(2);
    const noTty = await runMain(['login', '--base-url', base], { env: env() });
    expect(noTty.code).toBe(2);
    expect(noTty.stderr).toContain('--with-key');
    expect(noTty.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(existsSync(file)).toBe(false);
    expect(seen()).toEqual([]);
  });
});

describe('login on a terminal', () => {
  it('asks for the key without echoing it', async () => {
    const r = await runCliTty(['login', '--base-url', base], { env: env(), answers: [{ after: 'API key', text: `${GOOD}\r` }] });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('API key');
    expect(r.output).toContain(`Logged in to ${base} (profile default) as Test Owner`);
    expect(r.output).not.toContain(GOOD);
    expect(saved().default.apiKey).toBe(GOOD);
    // Coloured by default: the runs below, the same but for --no-color or NO_COLOR, are not.
    expect(r.output).toMatch(/\x1b\[[0-9;]*m/);
  });

  it('--no-color: the prompt has no colour either (as with NO_COLOR)', async () => {
    const answers = [{ after: 'API key', text: `${GOOD}\r` }];
    for (const r of [
      await runCliTty(['login', '--base-url', base, '--no-color'], { env: env(), answers }),
      await runCliTty(['--no-color', 'login', '--base-url', base], { env: env(), answers }),
      await runCliTty(['login', '--base-url', base], { env: env({ NO_COLOR: '1' }), answers }),
    ]) {
      expect(r.code, r.output).toBe(0);
      expect(r.output).toContain('? API key:');
      expect(r.output).not.toMatch(/\x1b\[[0-9;]*m/);
    }
  });
});

describe('logout', () => {
  it('removes the key and keeps the base URL; a second logout says there was nothing, or that the keyring could not be asked', async () => {
    await runMain(['login', '--with-key', '--base-url', base], { env: env(), stdin: GOOD });
    const out = await runMain(['logout'], { env: env() });
    expect(out.code).toBe(0);
    expect(out.stderr).toContain('Removed the API key of profile default');
    expect(saved()).toEqual({ default: { baseUrl: base } });
    // No keyring here (no D-Bus session): a key saved in one from another session cannot be ruled out.
    const unsure = await runMain(['logout'], { env: env() });
    expect(unsure.code).toBe(1);
    expect(unsure.stderr).toMatch(
      /^error: .*config\.json holds no API key for profile default, and the OS keyring did not answer \(no D-Bus session/,
    );
    const again = await runMain(['logout'], { env: env({ BOOKING_API_KEY: 'sk_env', BOOKING_KEY_STORE: 'file' }) });
    expect(again.code).toBe(0);
    expect(again.stderr).toContain('No API key saved');
    expect(again.stderr).toContain('BOOKING_API_KEY is still set');
    const none = await runMain(['api', '/api/v1/me'], { env: env() });
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('run: booking login');
  });
});
