// Where the key lives (issue 20), run in-process against an in-memory keyring and an always-failing
// one, as gh tests its keyring code: save, the lookup order, the fallback and its notice, a pinned
// keyring that is not there, the time bound, Ctrl-C, moving an old key out of the file, logout from
// both, auth token, masking. test/terminal/keyring-secret-service.test.ts does it once against a real one.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { KeyringUnavailableError, useKeyring, type KeyringOp, type KeyringResult, type SecretStore } from '../../src/config/keyring';
import { keyringEntry } from '../../src/config/key-location';

const KEY = 'sk_test_keyring_5678';

/** A keyring in a Map, recording each op (never the secret) so a test can say what was asked. */
function memoryKeyring(): SecretStore & { entries: Map<string, string>; ops: string[] } {
  const entries = new Map<string, string>();
  const ops: string[] = [];
  return {
    entries,
    ops,
    async run(batch: KeyringOp[]): Promise<KeyringResult[]> {
      return batch.map(({ op, service, account, secret }) => {
        const id = `${service} ${account}`;
        ops.push(`${op} ${id}`);
        if (op === 'get') return { ok: true, value: entries.get(id) ?? null };
        if (op === 'set') return (entries.set(id, secret!), { ok: true, value: null });
        return { ok: true, value: entries.delete(id) };
      });
    },
  };
}

/** No keyring at all, as on a headless server. */
const failingKeyring: SecretStore = {
  run: async () => {
    throw new KeyringUnavailableError('no Secret Service on the bus');
  },
};

/** A keyring that never answers (locked, waiting on a password prompt nobody sees). */
const silentKeyring: SecretStore = { run: () => new Promise(() => {}) };

let server: ShapeServer;
let cfg: { dir: string; cleanup(): void };
let store: ReturnType<typeof memoryKeyring>;
beforeAll(async () => {
  // The one booking echoes the key back: it must come out masked, whichever store it came from.
  server = await startShapeServer({ shape: 'data-meta', apiKey: KEY, count: 1, rawItem: () => `{"uid":"bk_1","note":"key ${KEY}"}` });
});
afterAll(() => server.close());
beforeEach(() => {
  cfg = tempConfigDir();
  store = memoryKeyring();
  useKeyring(store);
});
afterEach(() => {
  useKeyring(undefined);
  cfg.cleanup();
});

const entryId = (profile = 'default') => {
  const e = keyringEntry(profile, server.url);
  return `${e.service} ${e.account}`;
};
const configText = () => readFileSync(join(cfg.dir, 'config.json'), 'utf8');
const run = (args: string[], opts: { env?: Record<string, string>; stdin?: string; tty?: boolean; signal?: AbortSignal } = {}) =>
  runMain(args, { ...opts, env: { BOOKING_CONFIG_DIR: cfg.dir, ...opts.env } });
const login = (extra: string[] = [], env: Record<string, string> = {}) =>
  run(['login', '--base-url', server.url, '--with-key', ...extra], { stdin: `${KEY}\n`, env });

describe('login saves the key', () => {
  it('in the keyring when one answers: one entry per profile and base URL, no key in config.json', async () => {
    const r = await login();
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/; key saved in the OS keyring\.\n$/);
    expect(store.entries.get(entryId())).toBe(KEY);
    expect(configText()).not.toContain(KEY);
    expect(JSON.parse(configText())).toEqual({ profiles: { default: { baseUrl: server.url } } });
  });

  it('in the 0600 file, with one warning saying why, when no keyring answers', async () => {
    useKeyring(failingKeyring);
    const r = await login(['-q']);
    expect(r.code).toBe(0);
    // -q keeps the warning: the key is in plain text where it was not asked to be.
    expect(r.stderr).toBe(
      `warning: no OS keyring (no Secret Service on the bus); the key is saved in plain text in ${join(cfg.dir, 'config.json')} (mode 0600).\n`,
    );
    expect(JSON.parse(configText()).profiles.default.apiKey).toBe(KEY);
  });

  it('in the file, without asking the keyring, with --insecure-storage or a pinned file store', async () => {
    for (const [extra, env] of [
      [['--insecure-storage'], {}],
      [[], { BOOKING_KEY_STORE: 'file' }],
    ] as const) {
      const r = await login([...extra], env);
      expect(r.code).toBe(0);
      expect(r.stderr).not.toContain('warning');
      expect(JSON.parse(configText()).profiles.default.apiKey).toBe(KEY);
    }
    expect(store.ops).toEqual([]);
    expect((await run(['config', 'set', 'keyStore', 'file'])).code).toBe(0);
    await run(['config', 'unset', 'apiKey']);
    expect((await login()).code).toBe(0);
    expect(store.ops).toEqual([]);
  });

  it('a pinned keyring that is not there is exit 2, and nothing is written', async () => {
    useKeyring(failingKeyring);
    const r = await login([], { BOOKING_KEY_STORE: 'keyring' });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(
      /^error: BOOKING_KEY_STORE pins the key store to keyring, but no OS keyring answered: no Secret Service on the bus\.\n/,
    );
    expect(r.stderr).toContain('BOOKING_KEY_STORE=file, or booking login --insecure-storage');
    expect(() => configText()).toThrow();
    const conflict = await login(['--insecure-storage'], { BOOKING_KEY_STORE: 'keyring' });
    expect(conflict.code).toBe(2);
    expect((await login([], { BOOKING_KEY_STORE: 'vault' })).stderr).toContain('BOOKING_KEY_STORE must be keyring, file or auto');
  });

  it('moves a key an earlier version left in the file into the keyring', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    await run(['config', 'set', 'apiKey', 'sk_old_file_key_1234']);
    expect((await run(['auth', 'token'])).stdout).toBe('sk_old_file_key_1234\n');
    expect(store.ops).toEqual([]); // a key in the file: the keyring is not even loaded
    expect((await login()).code).toBe(0);
    expect(store.entries.get(entryId())).toBe(KEY);
    expect(configText()).not.toContain('sk_old');
    expect((await run(['auth', 'token'])).stdout).toBe(`${KEY}\n`);
  });
});

describe('lookup: BOOKING_API_KEY, then the keyring, then the file', () => {
  beforeEach(async () => {
    store.entries.set(entryId(), KEY);
    await run(['config', 'set', 'baseUrl', server.url]);
  });

  it('the keyring, unless BOOKING_API_KEY is set; profiles and whoami name the store', async () => {
    expect((await run(['auth', 'token'])).stdout).toBe(`${KEY}\n`);
    expect((await run(['auth', 'token'], { env: { BOOKING_API_KEY: 'sk_env_9999' } })).stdout).toBe('sk_env_9999\n');
    const profiles = await run(['profiles', '--json', 'name,apiKey,keyStore']);
    expect(JSON.parse(profiles.stdout)).toEqual([{ name: 'default', apiKey: '****5678', keyStore: 'keyring' }]);
    const envRow = await run(['auth', 'status', '--json', 'apiKey,keyStore'], { env: { BOOKING_API_KEY: 'sk_env_9999' } });
    expect(JSON.parse(envRow.stdout)).toEqual([{ apiKey: '****9999', keyStore: 'env' }]);
    const me = await run(['whoami'], { tty: true });
    expect(me.code).toBe(0);
    expect(me.stderr).toBe(`profile: default\nbase URL: ${server.url}\nkey: ****5678 (keyring)\n`);
  });

  it('a pinned keyring is where the key is looked for: a key in the file is never a fallback, even when the keyring has none', async () => {
    await run(['config', 'set', 'apiKey', 'sk_file_key_0000']);
    expect((await run(['auth', 'token'])).stdout).toBe('sk_file_key_0000\n');
    expect((await run(['auth', 'token'], { env: { BOOKING_KEY_STORE: 'keyring' } })).stdout).toBe(`${KEY}\n`);
    // A keyring with no entry (or a locked one, which gives none): exit 3, saying why the file's key is not used.
    store.entries.clear();
    const pinned = await run(['auth', 'token'], { env: { BOOKING_KEY_STORE: 'keyring' } });
    expect([pinned.code, pinned.stdout]).toEqual([3, '']);
    expect(pinned.stderr).toMatch(
      /BOOKING_KEY_STORE pins the key store to keyring, which gave none; the key in the config file is not used/,
    );
    expect(pinned.stderr).not.toContain('sk_file_key_0000');
  });

  it("--base-url to another service: no key, saying the profile's is kept for its own base URL", async () => {
    expect((await login()).code).toBe(0);
    const r = await run(['auth', 'token', '--base-url', 'http://127.0.0.1:1']);
    expect([r.code, r.stdout]).toEqual([3, '']);
    expect(r.stderr).toContain(
      `a key login saved is kept for the base URL it was saved with (this profile's is ${server.url}), and not sent to http://127.0.0.1:1`,
    );
    expect(r.stderr).not.toContain(KEY);
  });

  it('no keyring and no key in the file: exit 3 saying the keyring did not answer', async () => {
    useKeyring(failingKeyring);
    const r = await run(['bookings', 'list']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(
      /^error: no API key for profile default \(and BOOKING_API_KEY is not set\); no OS keyring answered \(no Secret Service on the bus\)\.\nrun: booking login\n$/,
    );
    expect((await run(['auth', 'token'], { env: { BOOKING_KEY_STORE: 'keyring' } })).code).toBe(2);
  });

  it('a key from the keyring is masked wherever a server echoes it', async () => {
    const r = await run(['bookings', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)[0].note).toBe('key ****');
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });
});

describe('bounded in time, and Ctrl-C', () => {
  it('a keyring that does not answer is exit 1 after BOOKING_KEYRING_TIMEOUT, naming the ways out', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    useKeyring(silentKeyring);
    const r = await run(['whoami'], { env: { BOOKING_KEYRING_TIMEOUT: '0.2' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'error: the OS keyring is not answering: it did not answer within 0.2 s (is it locked, waiting for a password?).\n' +
        'raise BOOKING_KEYRING_TIMEOUT (seconds), or keep the key in the config file: booking login --insecure-storage, or BOOKING_KEY_STORE=file.\n',
    );
    expect((await run(['whoami'], { env: { BOOKING_KEYRING_TIMEOUT: 'soon' } })).stderr).toBe(
      'error: BOOKING_KEYRING_TIMEOUT must be a number of seconds above 0, not "soon".\n',
    );
    // At login too: a timeout is not taken for "no keyring", so the key does not go to the file.
    const l = await login([], { BOOKING_KEYRING_TIMEOUT: '0.2' });
    expect(l.code).toBe(1);
    expect(configText()).not.toContain(KEY);
  });

  it('on a terminal, a keyring slow to answer is said while it is waited for, then cleared', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    useKeyring(silentKeyring);
    const r = await run(['whoami'], { tty: true, env: { BOOKING_KEYRING_TIMEOUT: '1.5', BOOKING_PAGER: '' } });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /Waiting for the OS keyring \(1s, Ctrl-C to stop\): the API key\r\x1b\[2Kerror: the OS keyring is not answering/,
    );
  });

  it("D-Bus giving up on the keyring's reply is the same error, and the key does not go to the file", async () => {
    useKeyring({
      run: async (ops) =>
        ops.map(() => ({ ok: false, error: 'Platform failure: DBus error: Did not receive a reply. Possible causes include: …' })),
    });
    const r = await login();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the OS keyring is not answering: its D-Bus call timed out /);
    expect(() => configText()).toThrow();
  });

  it('a Secret Service with no unlocked keyring ("no result found"): advice, not the library\'s words alone', async () => {
    useKeyring({ run: async (ops) => ops.map(() => ({ ok: false, error: 'Secret Service: no result found' })) });
    const l = await login();
    expect(l.code, l.stderr).toBe(0);
    expect(l.stderr).toContain('the Secret Service has no unlocked keyring ("no result found"): unlock or create your login keyring');
    const profiles = await run(['profiles'], { tty: true });
    expect(profiles.stderr + profiles.stdout).not.toMatch(/Secret Service: no result found/);
  });

  it('Ctrl-C while the keyring is asked: exit 130', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    useKeyring(silentKeyring);
    const ctrlC = new AbortController();
    const pending = run(['auth', 'token'], { signal: ctrlC.signal });
    ctrlC.abort();
    expect((await pending).code).toBe(130);
  });
});

describe('logout', () => {
  it('removes the key from the keyring and from the file, and says where from', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    await run(['config', 'set', 'apiKey', 'sk_file_key_0000']);
    store.entries.set(entryId(), KEY);
    const r = await run(['auth', 'logout']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe(
      `Removed the API key of profile default from ${join(cfg.dir, 'config.json')} and the OS keyring (base URL ${server.url} kept).\n`,
    );
    expect(store.entries.size).toBe(0);
    expect(configText()).not.toContain('apiKey');
    expect((await run(['logout'])).stderr).toBe('No API key saved for profile default; nothing to remove.\n');
  });

  it('without a keyring, the file alone; a pinned keyring that is not there is exit 2', async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
    await run(['config', 'set', 'apiKey', 'sk_file_key_0000']);
    useKeyring(failingKeyring);
    expect((await run(['logout'], { env: { BOOKING_KEY_STORE: 'keyring' } })).code).toBe(2);
    // Refused before anything was removed.
    expect(configText()).toContain('sk_file_key_0000');
    const r = await run(['logout']);
    expect(r.code).toBe(0);
    expect(configText()).not.toContain('apiKey');
  });
});

describe('one keyring entry per profile, wherever its base URL goes', () => {
  const OTHER = 'http://127.0.0.1:9';
  const otherId = `${keyringEntry('default', OTHER).service} default`;

  it('login to another base URL takes the entry of the old one away', async () => {
    expect((await login()).code).toBe(0);
    const r = await run(['login', '--base-url', OTHER, '--with-key', '--no-verify'], { stdin: 'sk_test_other_1111\n' });
    expect(r.code, r.stderr).toBe(0);
    expect([...store.entries.keys()]).toEqual([otherId]);
  });

  it('login --insecure-storage to another base URL takes the entry of the old one away too', async () => {
    expect((await login()).code).toBe(0);
    const r = await run(['login', '--base-url', OTHER, '--with-key', '--no-verify', '--insecure-storage'], {
      stdin: 'sk_test_other_1111\n',
    });
    expect(r.code, r.stderr).toBe(0);
    expect(store.entries.size).toBe(0);
    expect(JSON.parse(configText()).profiles.default.apiKey).toBe('sk_test_other_1111');
  });

  it('config set baseUrl moves the key with it; logout then finds it, and leaves no entry', async () => {
    expect((await login()).code).toBe(0);
    const set = await run(['config', 'set', 'baseUrl', OTHER]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toContain('the API key of profile default moved with it in the OS keyring');
    expect([...store.entries]).toEqual([[otherId, KEY]]);
    const out = await run(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain('from the OS keyring');
    expect(store.entries.size).toBe(0);
  });

  it('logout with another base URL in force removes the entries of both', async () => {
    expect((await login()).code).toBe(0);
    store.entries.set(otherId, 'sk_test_other_1111');
    const r = await run(['logout'], { env: { BOOKING_BASE_URL: OTHER } });
    expect(r.code, r.stderr).toBe(0);
    expect(store.entries.size).toBe(0);
  });

  it('config unset baseUrl while the keyring holds the key: exit 2, nothing changed', async () => {
    expect((await login()).code).toBe(0);
    const r = await run(['config', 'unset', 'baseUrl']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/saved in the OS keyring for http:\/\/127\.0\.0\.1:\d+: run booking logout first/);
    expect(JSON.parse(configText()).profiles.default.baseUrl).toBe(server.url);
    expect((await run(['logout'])).code).toBe(0);
    expect((await run(['config', 'unset', 'baseUrl'])).code).toBe(0);
  });

  it('logout where no keyring answers, the key not in the file: exit 1, never "nothing to remove"', async () => {
    expect((await login()).code).toBe(0);
    useKeyring(failingKeyring);
    const r = await run(['logout']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /^error: .*config\.json holds no API key for profile default, and the OS keyring did not answer \(no Secret Service on the bus\): whether it holds one could not be checked, and none was removed\.\n/,
    );
    expect(store.entries.get(entryId())).toBe(KEY);
  });

  it('a keyStore setting config set would refuse, edited into the file: exit 2 naming it', async () => {
    expect((await login()).code).toBe(0);
    const data = JSON.parse(configText());
    data.profiles.default.keyStore = 'vault';
    writeFileSync(join(cfg.dir, 'config.json'), JSON.stringify(data));
    const r = await run(['whoami']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/the keyStore setting of profile default must be keyring or file, not "vault"/);
    // Another profile's typo does not hide this one from `profiles`; its own fix names it.
    data.profiles.default.keyStore = undefined;
    data.profiles.other = { baseUrl: server.url, keyStore: 'File' };
    writeFileSync(join(cfg.dir, 'config.json'), JSON.stringify(data));
    const listed = await run(['profiles', '--json', 'name,keyStore']);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([
      { name: 'default', keyStore: 'keyring' },
      { name: 'other', keyStore: null },
    ]);
    expect((await run(['whoami', '--profile', 'other'])).stderr).toContain('booking config set keyStore keyring --profile other');
  });
});

describe('auth token', () => {
  beforeEach(async () => {
    await run(['config', 'set', 'baseUrl', server.url]);
  });

  it('prints the key for a script; on a terminal, a warning on stderr first', async () => {
    store.entries.set(entryId(), KEY);
    const piped = await run(['auth', 'token']);
    expect(piped).toMatchObject({ code: 0, stdout: `${KEY}\n`, stderr: '' });
    const tty = await run(['auth', 'token'], { tty: true });
    expect(tty.stdout).toBe(`${KEY}\n`);
    expect(tty.stderr).toMatch(/^warning: this prints the API key in clear/);
  });

  it('refuses output flags it could not honour (exit 2)', async () => {
    store.entries.set(entryId(), KEY);
    for (const flag of [['--json'], ['-o', 'tsv'], ['--jq', '.'], ['--fields', 'a']]) {
      const r = await run(['auth', 'token', ...flag]);
      expect(r.code, flag.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: -\S+ does not apply to 'booking auth token': it prints the key alone, not records\.\n/);
    }
  });

  it('exit 3 when the profile has no key', async () => {
    const r = await run(['auth', 'token', '--profile', 'default']);
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: no API key for profile default/);
  });
});
