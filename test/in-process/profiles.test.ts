// `booking profiles` (and `booking auth status`): every profile with its base URL, the key masked,
// and which one is active, as a table, tsv or JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

const cfg = tempConfigDir();
const run = (args: string[], env: Record<string, string> = {}) => runMain(args, { env: { BOOKING_CONFIG_DIR: cfg.dir, ...env } });

beforeAll(async () => {
  expect((await run(['config', 'set', 'baseUrl', 'http://127.0.0.1:4010'])).code).toBe(0);
  expect((await run(['config', 'set', 'apiKey', 'sk_test_abcdefgh1234'])).code).toBe(0);
  expect((await run(['config', 'set', 'baseUrl', 'https://api.example.com', '--profile', 'staging'])).code).toBe(0);
});
afterAll(() => cfg.cleanup());

describe('booking profiles', () => {
  it('-o json: name, base URL, masked key, active', async () => {
    const r = await run(['profiles', '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'default', active: true, baseUrl: 'http://127.0.0.1:4010', apiKey: '****1234', keyStore: 'file' },
      { name: 'staging', active: false, baseUrl: 'https://api.example.com', apiKey: null, keyStore: null },
    ]);
    expect(r.stdout).not.toContain('abcdefgh');
  });

  it('the active one follows --profile and BOOKING_PROFILE; auth status is the same command', async () => {
    const r = await run(['auth', 'status', '--json', 'name,active'], { BOOKING_PROFILE: 'staging' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([
      { name: 'default', active: false },
      { name: 'staging', active: true },
    ]);
    const tsv = await run(['profiles', '--profile', 'staging']);
    expect(tsv.stdout).toBe('default\tfalse\thttp://127.0.0.1:4010\t****1234\tfile\nstaging\ttrue\thttps://api.example.com\t\t\n');
  });

  it('an active profile with no settings is said on stderr', async () => {
    const r = await run(['profiles', '--profile', 'nobody']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^The active profile, nobody, has no settings .*booking login --base-url URL --profile nobody\n/);
    // staging keeps no key in the file: it may be in a keyring that this session cannot reach.
    expect(r.stderr).toMatch(
      /\nnote: no OS keyring answered \(no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set\): keys saved in one are not shown\.\n$/,
    );
  });
});
