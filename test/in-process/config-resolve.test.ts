// resolveConnection and the setting rules: which base URL and key win, and what is refused.
import { describe, expect, it } from 'vitest';
import type { ConfigStore, Profile } from '../../src/config/types';
import type { GlobalOptions } from '../../src/context';
import { refusedKeyHint, resolveConnection } from '../../src/config/resolve';
import { apiKeyValue, baseUrlText, parseBaseUrl, profileKey, settingValue } from '../../src/config/keys';
import { AuthError, UsageError } from '../../src/base/errors';

function memoryStore(profiles: Record<string, Profile>): ConfigStore {
  return {
    path: '/nowhere/config.json',
    profileNames: () => Object.keys(profiles),
    getProfile: (name) => ({ ...(Object.hasOwn(profiles, name) ? profiles[name] : {}) }),
    setValues: async () => {},
    unsetKeys: async () => {},
  };
}

function globals(over: Partial<GlobalOptions> = {}): GlobalOptions {
  return { profile: 'default', noColor: false, timeoutMs: 30_000, retries: 3, debug: false, quiet: false, allowHttp: false, ...over };
}

const saved = memoryStore({
  default: {
    baseUrl: 'https://api.example.com/prefix',
    apiKey: 'sk_conf',
    cursorPath: 'meta.next',
    itemsPath: 'data.rows',
    cursorParam: 'pageToken',
    cursorFromLast: 'id',
  },
  keyless: { baseUrl: 'https://k.example.com' },
  urlless: { apiKey: 'sk_u' },
  broken: { baseUrl: 'api.example.com', apiKey: 'x' },
});

describe('resolveConnection', async () => {
  it('takes everything from the profile', async () => {
    const c = await resolveConnection(saved, globals(), {});
    expect(c).toEqual({
      profile: 'default',
      baseUrl: new URL('https://api.example.com/prefix'),
      apiKey: 'sk_conf',
      keySource: 'file',
      cursorPath: 'meta.next',
      itemsPath: 'data.rows',
      cursorParam: 'pageToken',
      cursorFromLast: 'id',
    });
  });

  it('BOOKING_API_KEY wins over the saved key; an empty one does not count', async () => {
    expect(await resolveConnection(saved, globals(), { BOOKING_API_KEY: 'sk_env' })).toMatchObject({ apiKey: 'sk_env', keySource: 'env' });
    expect(await resolveConnection(saved, globals(), { BOOKING_API_KEY: '' })).toMatchObject({ apiKey: 'sk_conf', keySource: 'file' });
    expect((await resolveConnection(saved, globals({ profile: 'keyless' }), { BOOKING_API_KEY: 'sk_env' })).keySource).toBe('env');
  });

  it('a key is trimmed (a file read into BOOKING_API_KEY ends in a newline); one with spaces inside is exit 2 naming its source', async () => {
    expect((await resolveConnection(saved, globals(), { BOOKING_API_KEY: 'sk_env\n' })).apiKey).toBe('sk_env');
    expect((await resolveConnection(saved, globals(), { BOOKING_API_KEY: '  sk_env ' })).apiKey).toBe('sk_env');
    const err = await catchAsync(() => resolveConnection(saved, globals(), { BOOKING_API_KEY: 'sk env' }));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toMatch(/^BOOKING_API_KEY: the API key contains spaces/);
    const fromFile = await catchAsync(() =>
      resolveConnection(memoryStore({ default: { baseUrl: 'https://a', apiKey: 'a\u0007b' } }), globals(), {}),
    );
    expect(fromFile.message).toMatch(/^the apiKey of profile default in \/nowhere\/config.json: /);
    expect(fromFile.exitCode).toBe(2);
  });

  it('a refused key: the hint says where the key came from', async () => {
    expect(refusedKeyHint(await resolveConnection(saved, globals(), { BOOKING_API_KEY: 'sk_env' }))).toMatch(/BOOKING_API_KEY/);
    expect(refusedKeyHint(await resolveConnection(saved, globals(), {}))).toBe('run: booking login');
    expect(
      refusedKeyHint(
        await resolveConnection(memoryStore({ work: { baseUrl: 'https://a', apiKey: 'k' } }), globals({ profile: 'work' }), {}),
      ),
    ).toBe('run: booking login --profile work');
  });

  it('--base-url (or BOOKING_BASE_URL) wins over the profile', async () => {
    expect((await resolveConnection(saved, globals({ baseUrl: 'http://127.0.0.1:9/' }), {})).baseUrl.href).toBe('http://127.0.0.1:9/');
    expect((await resolveConnection(saved, globals({ profile: 'urlless', baseUrl: 'https://x.example' }), {})).apiKey).toBe('sk_u');
  });

  it('no base URL is exit 3 with the login --base-url hint, for any profile', async () => {
    const err = await catchAsync(() => resolveConnection(saved, globals({ profile: 'urlless' }), { BOOKING_API_KEY: 'k' }));
    expect(err).toBeInstanceOf(AuthError);
    expect(err.exitCode).toBe(3);
    expect(err.hint).toBe('run: booking login --base-url URL --profile urlless');
    expect((await catchAsync(() => resolveConnection(saved, globals({ profile: 'new' }), {}))).hint).toBe(
      'run: booking login --base-url URL --profile new',
    );
    expect((await catchAsync(() => resolveConnection(memoryStore({}), globals(), {}))).hint).toBe('run: booking login --base-url URL');
  });

  it('no key is exit 3 with the login hint', async () => {
    const err = await catchAsync(() => resolveConnection(saved, globals({ profile: 'keyless' }), {}));
    expect(err).toBeInstanceOf(AuthError);
    expect(err.hint).toBe('run: booking login --profile keyless');
    expect((await catchAsync(() => resolveConnection(memoryStore({ default: { baseUrl: 'https://a' } }), globals(), {}))).hint).toBe(
      'run: booking login',
    );
  });

  it('a bad base URL is exit 2, from the profile or the flag', async () => {
    expect(await catchAsync(() => resolveConnection(saved, globals({ profile: 'broken' }), {}))).toBeInstanceOf(UsageError);
    expect((await catchAsync(() => resolveConnection(saved, globals({ baseUrl: 'ftp://x' }), {}))).exitCode).toBe(2);
  });

  it('plain http to a non-loopback host is exit 2 unless --allow-http', async () => {
    expect((await catchAsync(() => resolveConnection(saved, globals({ baseUrl: 'http://api.example.com' }), {}))).exitCode).toBe(2);
    expect((await resolveConnection(saved, globals({ baseUrl: 'http://api.example.com', allowHttp: true }), {})).baseUrl.host).toBe(
      'api.example.com',
    );
  });
});

describe('parseBaseUrl', () => {
  it.each(['https://api.example.com', 'HTTP://localhost:8080/', 'https://h.example/prefix/', ' https://h.example '])('accepts %s', (u) => {
    expect(parseBaseUrl(u)).toBeInstanceOf(URL);
  });
  it.each([
    'api.example.com',
    '/api',
    'ftp://h',
    'file:///etc/passwd',
    'javascript:alert(1)',
    'https://',
    'https://h/?q=1',
    'https://h/#x',
    '',
  ])('refuses %j', (u) => {
    expect(catchError(() => parseBaseUrl(u))).toBeInstanceOf(UsageError);
  });
  it('refuses credentials without echoing them', () => {
    const err = catchError(() => parseBaseUrl('https://user:hunter2@h.example'));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).not.toContain('hunter2');
  });
  it('shows and saves a normalised form', () => {
    expect(baseUrlText(parseBaseUrl('HTTPS://API.Example.com:443/'))).toBe('https://api.example.com');
    expect(baseUrlText(parseBaseUrl('https://h.example/prefix/'))).toBe('https://h.example/prefix/');
  });
});

describe('setting names and values', () => {
  it.each([
    ['baseUrl', 'baseUrl'],
    ['base-url', 'baseUrl'],
    ['base_url', 'baseUrl'],
    ['BASE_URL', 'baseUrl'],
    ['apiKey', 'apiKey'],
    ['api-key', 'apiKey'],
    ['api_key', 'apiKey'],
    ['cursorPath', 'cursorPath'],
    ['cursor-path', 'cursorPath'],
    ['items-path', 'itemsPath'],
    ['itemsPath', 'itemsPath'],
    ['cursorParam', 'cursorParam'],
    ['cursor-param', 'cursorParam'],
    ['cursor_param', 'cursorParam'],
    ['CURSOR_PARAM', 'cursorParam'],
    ['cursorFromLast', 'cursorFromLast'],
    ['cursor-from-last', 'cursorFromLast'],
    ['cursor_from_last', 'cursorFromLast'],
  ])('%s is %s', (alias, key) => expect(profileKey(alias)).toBe(key));

  it('an unknown key lists the valid ones', () => {
    const err = catchError(() => profileKey('colour'));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toContain('baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast');
    expect(catchError(() => profileKey('__proto__'))).toBeInstanceOf(UsageError);
    expect(catchError(() => profileKey('constructor'))).toBeInstanceOf(UsageError);
  });

  it('values are checked per key', () => {
    expect(settingValue('baseUrl', 'https://a.example/')).toBe('https://a.example');
    expect(() => settingValue('baseUrl', 'a.example')).toThrow(UsageError);
    expect(settingValue('cursorPath', 'meta.next_cursor')).toBe('meta.next_cursor');
    expect(() => settingValue('itemsPath', '')).toThrow(UsageError);
    expect(() => settingValue('itemsPath', 'a b')).toThrow(UsageError);
    expect(settingValue('apiKey', ' sk_1 ')).toBe('sk_1');
    expect(settingValue('cursorParam', 'page[after]')).toBe('page[after]');
    expect(settingValue('cursorParam', '$skiptoken')).toBe('$skiptoken');
    for (const bad of ['', 'page token', 'a&b', 'a=b', '?cursor', 'a#b', 'caf\u00e9', 'a\u0007']) {
      expect(catchError(() => settingValue('cursorParam', bad)).message, bad).toMatch(
        /^cursorParam must be a query parameter name such as pageToken/,
      );
    }
    expect(settingValue('cursorFromLast', 'meta.id')).toBe('meta.id');
    expect(catchError(() => settingValue('cursorFromLast', 'a b')).message).toMatch(/^cursorFromLast must be a dot path such as id /);
  });

  it('a key is trimmed; empty or with inner whitespace or control characters is refused', () => {
    expect(apiKeyValue('sk_abc\n')).toBe('sk_abc');
    expect(apiKeyValue('\ufeffsk_abc\r\n')).toBe('sk_abc');
    for (const bad of ['', '  \n', 'sk a', 'sk\nb', 'sk\x1b[0m']) expect(() => apiKeyValue(bad)).toThrow(UsageError);
  });
});

function catchError(fn: () => unknown): AuthError | UsageError {
  try {
    fn();
  } catch (err) {
    return err as AuthError;
  }
  throw new Error('expected an error');
}

async function catchAsync(fn: () => Promise<unknown>): Promise<AuthError | UsageError> {
  try {
    await fn();
  } catch (err) {
    return err as AuthError;
  }
  throw new Error('expected an error');
}
