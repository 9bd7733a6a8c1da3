// login, logout and config run functions with testIO() and a temp config file; login checks keys
// against a loopback server through the real HTTP client.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context, GlobalOptions } from '../../src/context';
import type { TestIO } from '../../src/output/io';
import { testContext } from '../helpers/context';
import { openConfigAt } from '../../src/config/store';
import { AuthError, UsageError } from '../../src/base/errors';
import { newCmdLogin, runLogin, type LoginOptions } from '../../src/commands/auth/login/login';
import { buildCommand } from '../../src/commands/build';
import { runLogout } from '../../src/commands/auth/logout';
import { describeOwner } from '../../src/commands/auth/login/owner';
import { runConfigList } from '../../src/commands/config/list';
import { runConfigGet } from '../../src/commands/config/get';
import { runConfigSet, runConfigUnset } from '../../src/commands/config/set';
import { runConfigPath } from '../../src/commands/config/path';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';

// /api/v1/me answers 200 {"data": {"name": "Test Owner", "email": …}} for this key, 401 otherwise.
const GOOD_KEY = 'sk_test_good_5678';
let server: ShapeServer;
let baseUrl: string;
beforeAll(async () => {
  server = await startShapeServer({ shape: 'data-meta', apiKey: GOOD_KEY });
  baseUrl = server.url;
});
afterAll(() => server.close());

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'booking-cmds-'));
  path = join(dir, 'config.json');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface CtxOptions {
  tty?: boolean;
  stdin?: string;
  env?: Record<string, string>;
  globals?: Partial<GlobalOptions>;
}

function context(opts: CtxOptions = {}): Context & { io: TestIO } {
  return testContext({ ...opts, config: async () => openConfigAt(path) });
}

const saved = () => openConfigAt(path).getProfile('default');
const login = (opts: Partial<LoginOptions>, ctx: Context) =>
  runLogin({ withKey: true, verify: true, insecureStorage: false, ...opts }, ctx);

describe('login', () => {
  it('a good key from stdin is checked, then saved with the base URL; the owner is named on stderr', async () => {
    const ctx = context({ stdin: `${GOOD_KEY}\n`, globals: { baseUrl: `${baseUrl}/` } });
    await login({}, ctx);
    expect(saved()).toEqual({ baseUrl, apiKey: GOOD_KEY });
    expect(ctx.io.out()).toBe('');
    expect(ctx.io.err()).toBe(
      `warning: no OS keyring (no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set); the key is saved in plain text in ${path} (mode 0600).\n` +
        `Logged in to ${baseUrl} (profile default) as Test Owner <owner@example.com>; key saved in ${path}.\n`,
    );
  });

  it('a rejected key is exit 3 and never saved', async () => {
    const ctx = context({ stdin: 'sk_wrong', globals: { baseUrl } });
    const err = await login({}, ctx).catch((e) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect(err.message).toContain('401');
    expect(err.message).toContain('not saved');
    expect(existsSync(path)).toBe(false);
  });

  it('a rejected key leaves an earlier good one in place', async () => {
    await openConfigAt(path).setValues('default', { baseUrl, apiKey: GOOD_KEY });
    await expect(login({}, context({ stdin: 'sk_wrong' }))).rejects.toBeInstanceOf(AuthError);
    expect(saved().apiKey).toBe(GOOD_KEY);
  });

  it('uses the saved base URL when no --base-url is given; none at all is exit 3 with the hint', async () => {
    await expect(login({}, context({ stdin: GOOD_KEY }))).rejects.toMatchObject({ exitCode: 3, hint: 'run: booking login --base-url URL' });
    await openConfigAt(path).setValues('default', { baseUrl });
    await login({}, context({ stdin: GOOD_KEY }));
    expect(saved().apiKey).toBe(GOOD_KEY);
  });

  it('--no-verify saves without asking the server', async () => {
    const ctx = context({ stdin: 'sk_unchecked', globals: { baseUrl: 'https://unreachable.invalid', profile: 'work' } });
    await login({ verify: false }, ctx);
    expect(openConfigAt(path).getProfile('work')).toEqual({ baseUrl: 'https://unreachable.invalid', apiKey: 'sk_unchecked' });
    expect(ctx.io.err()).toContain('without checking');
  });

  it('an empty key, a bad base URL or no terminal without --with-key are usage errors, nothing saved', async () => {
    await expect(login({}, context({ stdin: ' \n', globals: { baseUrl } }))).rejects.toBeInstanceOf(UsageError);
    await expect(login({}, context({ stdin: GOOD_KEY, globals: { baseUrl: 'example.com' } }))).rejects.toBeInstanceOf(UsageError);
    await expect(login({}, context({ stdin: GOOD_KEY, globals: { baseUrl: 'http://example.com' } }))).rejects.toBeInstanceOf(UsageError);
    const err = await login({ withKey: false }, context({ globals: { baseUrl } })).catch((e) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain('--with-key');
    expect(existsSync(path)).toBe(false);
  });

  it('warns that BOOKING_API_KEY still wins, even with -q', async () => {
    // The file pinned: no keyring notice beside the warning.
    const ctx = context({
      stdin: GOOD_KEY,
      env: { BOOKING_API_KEY: 'other', BOOKING_KEY_STORE: 'file' },
      globals: { baseUrl, quiet: true },
    });
    await login({}, ctx);
    expect(ctx.io.err()).toBe('warning: BOOKING_API_KEY is set in the environment and wins over the saved key while it is set.\n');
  });

  it('turns flags into options', async () => {
    const seen: LoginOptions[] = [];
    const deps = { context: () => context(), setExitCode: () => {} };
    const parse = (args: string[]) => buildCommand(newCmdLogin, deps, async (o) => void seen.push(o)).parseAsync(args, { from: 'user' });
    await parse([]);
    await parse(['--with-key', '--no-verify', '--insecure-storage']);
    expect(seen).toEqual([
      { withKey: false, verify: true, insecureStorage: false },
      { withKey: true, verify: false, insecureStorage: true },
    ]);
  });
});

describe('describeOwner', () => {
  it.each([
    [{ name: 'A', email: 'a@x' }, 'A <a@x>'],
    [{ data: { username: 'ada' } }, 'ada'],
    [{ data: { user: { email: 'e@x', id: 3 } } }, 'e@x'],
    [{ id: 4, user: { full_name: 'Full Name' } }, 'Full Name'],
    [{ status: 'ok', data: { owner: { displayName: 'D' } } }, 'D'],
    [{ id: 5 }, undefined],
    [[1, 2], undefined],
    ['text', undefined],
    [{ name: 'evil\x1b]0;title\x07' }, 'evil\\x1b]0;title\\x07'],
  ])('%j → %s', (body, want) => expect(describeOwner(body)).toBe(want));
});

describe('logout', () => {
  it('removes the key, keeps the base URL, and says so', async () => {
    await openConfigAt(path).setValues('default', { baseUrl, apiKey: GOOD_KEY });
    const ctx = context();
    await runLogout({}, ctx);
    expect(saved()).toEqual({ baseUrl });
    expect(ctx.io.err()).toContain('Removed the API key of profile default');
    expect(ctx.io.out()).toBe('');
  });

  it('with no key says there was nothing, exit 0, and mentions BOOKING_API_KEY when set', async () => {
    const ctx = context({ env: { BOOKING_API_KEY: 'k' } });
    await expect(runLogout({}, ctx)).resolves.toBeUndefined();
    expect(ctx.io.err()).toContain('No API key saved for profile default');
    expect(ctx.io.err()).toContain('BOOKING_API_KEY is still set');
    expect(existsSync(path)).toBe(false);
  });
});

describe('config', () => {
  beforeEach(async () => {
    await openConfigAt(path).setValues('default', {
      baseUrl: 'https://api.example.com',
      apiKey: 'sk_live_wxyz9876',
      cursorPath: 'meta.next',
    });
  });

  it('path prints the file path, even when the file is malformed', async () => {
    const ctx = context();
    await runConfigPath({}, ctx);
    expect(ctx.io.out()).toBe(`${path}\n`);
  });

  it('list: key<TAB>value when piped, the key masked to its last 4', async () => {
    const ctx = context();
    await runConfigList({}, ctx);
    expect(ctx.io.out()).toBe('baseUrl\thttps://api.example.com\napiKey\t****9876\ncursorPath\tmeta.next\n');
  });

  it('list: aligned on a terminal, an object with -o json', async () => {
    const tty = context({ tty: true });
    await runConfigList({}, tty);
    expect(tty.io.out()).toMatch(/baseUrl\s+https:\/\/api\.example\.com/);
    expect(tty.io.out()).toContain('****9876');
    expect(tty.io.out()).not.toContain('sk_live');
    const json = context({ globals: { output: 'json' } });
    await runConfigList({}, json);
    expect(JSON.parse(json.io.out())).toEqual({ baseUrl: 'https://api.example.com', apiKey: '****9876', cursorPath: 'meta.next' });
  });

  it('list: an empty profile prints {} in JSON, nothing otherwise, and a hint', async () => {
    const json = context({ globals: { output: 'json', profile: 'empty' } });
    await runConfigList({}, json);
    expect(JSON.parse(json.io.out())).toEqual({});
    const tsv = context({ globals: { profile: 'empty' } });
    await runConfigList({}, tsv);
    expect(tsv.io.out()).toBe('');
    expect(tsv.io.err()).toContain('booking login --base-url URL --profile empty');
  });

  it('get prints the raw value (the key unmasked); an unset key prints nothing', async () => {
    const ctx = context();
    await runConfigGet({ key: 'api-key' }, ctx);
    await runConfigGet({ key: 'items_path' }, ctx);
    expect(ctx.io.out()).toBe('sk_live_wxyz9876\n');
    await expect(runConfigGet({ key: 'colour' }, ctx)).rejects.toThrow(
      /valid keys are baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast, keyStore, tz\./,
    );
  });

  it('set validates and saves on --profile; unset removes', async () => {
    const ctx = context({ globals: { profile: 'work' } });
    await runConfigSet({ key: 'base_url', value: 'https://work.example.com/' }, ctx);
    await runConfigSet({ key: 'items-path', value: 'data.rows' }, ctx);
    expect(openConfigAt(path).getProfile('work')).toEqual({ baseUrl: 'https://work.example.com', itemsPath: 'data.rows' });
    await expect(runConfigSet({ key: 'baseUrl', value: 'work.example.com' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(runConfigSet({ key: 'colour', value: 'red' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await runConfigUnset({ key: 'itemsPath' }, ctx);
    await runConfigUnset({ key: 'itemsPath' }, ctx);
    expect(openConfigAt(path).getProfile('work')).toEqual({ baseUrl: 'https://work.example.com' });
    expect(saved().apiKey).toBe('sk_live_wxyz9876');
    expect(JSON.parse(readFileSync(path, 'utf8')).profiles.default.cursorPath).toBe('meta.next');
  });

  it('cursorParam and cursorFromLast: set, get and unset under any alias, checked, listed', async () => {
    const ctx = context({ globals: { profile: 'paging' } });
    await runConfigSet({ key: 'cursor-param', value: 'pageToken' }, ctx);
    await runConfigSet({ key: 'cursor_from_last', value: 'id' }, ctx);
    expect(openConfigAt(path).getProfile('paging')).toEqual({ cursorParam: 'pageToken', cursorFromLast: 'id' });
    await runConfigGet({ key: 'cursorparam' }, ctx);
    await runConfigGet({ key: 'cursor-from-last' }, ctx);
    expect(ctx.io.out()).toBe('pageToken\nid\n');
    await expect(runConfigSet({ key: 'cursorParam', value: 'a=b' }, ctx)).rejects.toBeInstanceOf(UsageError);
    await expect(runConfigSet({ key: 'cursorFromLast', value: 'a b' }, ctx)).rejects.toBeInstanceOf(UsageError);
    // A path every list would fail to read is refused when it is saved, not at the next list.
    for (const key of ['itemsPath', 'cursorPath', 'cursorFromLast'])
      await expect(runConfigSet({ key, value: 'a..b' }, ctx)).rejects.toThrow(/cannot read the path "a\.\.b" at character 2/);
    await runConfigSet({ key: 'itemsPath', value: 'data["x.y"]' }, ctx);
    await runConfigUnset({ key: 'itemsPath' }, ctx);
    const listed = context({ globals: { profile: 'paging', output: 'json' } });
    await runConfigList({}, listed);
    expect(JSON.parse(listed.io.out())).toEqual({ cursorParam: 'pageToken', cursorFromLast: 'id' });
    await runConfigUnset({ key: 'CURSOR_PARAM' }, ctx);
    await runConfigUnset({ key: 'cursorFromLast' }, ctx);
    expect(openConfigAt(path).getProfile('paging')).toEqual({});
  });

  it('set apiKey warns about shell history', async () => {
    const ctx = context();
    await runConfigSet({ key: 'apiKey', value: 'sk_new_1111' }, ctx);
    expect(saved().apiKey).toBe('sk_new_1111');
    expect(ctx.io.err()).toContain('shell history');
  });
});
