// The keyring for real, once: a private D-Bus session (dbus-run-session) with gnome-keyring-daemon
// unlocked by a known password, and bin/booking.js spawned against it: login, no key in config.json,
// whoami, logout, and the entry gone (asked of the binding directly, not through booking). .ci/run
// installs gnome-keyring and dbus; where they are missing, the test is skipped and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { missingKeyringTools, startKeyringSession } from '../../scripts/keyring-session.mjs';
import { runCli, runCliTty, tempConfigDir } from '../helpers/cli';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { skipNote } from '../helpers/skip';

const KEY = 'sk_test_secret_service_4321';
const missing = missingKeyringTools();
const why = missing.length > 0 ? `${missing.join(', ')} not installed (apt-get install gnome-keyring dbus, as .ci/run does)` : undefined;

describe.skipIf(why !== undefined)(skipNote('against a real Secret Service (gnome-keyring in a private D-Bus session)', why), () => {
  let session: { bus: string; stop(): void } | undefined;
  let bus: string;
  let server: ShapeServer;
  const cfg = tempConfigDir();

  beforeAll(async () => {
    server = await startShapeServer({ shape: 'data-meta', apiKey: KEY });
    const started = await startKeyringSession();
    session = started;
    bus = started.bus;
  }, 30_000);

  afterAll(async () => {
    session?.stop();
    await server?.close();
    cfg.cleanup();
  });

  const env = () => ({ BOOKING_CONFIG_DIR: cfg.dir, DBUS_SESSION_BUS_ADDRESS: bus, BOOKING_KEYRING_TIMEOUT: '20' });

  /** The entry as the binding itself sees it, in a process of its own on the test's bus. */
  const entryInKeyring = () => {
    const binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    const code = `const { Entry } = require(${JSON.stringify(binding)}); const e = new Entry('booking-cli:' + process.argv[1], 'default', { linux: { store: 'secret-service' } }); process.stdout.write(JSON.stringify(e.getPassword()))`;
    const r = spawnSync(process.execPath, ['-e', code, server.url], {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus },
      encoding: 'utf8',
    });
    expect(r.status, r.stderr).toBe(0);
    return JSON.parse(r.stdout) as string | null;
  };

  it('login keeps the key out of config.json; whoami finds it there; logout removes the entry', async () => {
    const login = await runCli(['login', '--base-url', server.url, '--with-key'], { env: env(), stdin: `${KEY}\n`, timeoutMs: 30_000 });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/; key saved in the OS keyring\.\n$/);
    expect(entryInKeyring()).toBe(KEY);
    // `grep -r <key> ~/.config/booking-cli` finds nothing.
    for (const file of readdirSync(cfg.dir)) expect(readFileSync(join(cfg.dir, file), 'utf8')).not.toContain(KEY);

    const me = await runCliTty(['whoami'], { env: { ...env(), NO_COLOR: '1' }, timeoutMs: 30_000 });
    expect(me.code, me.output).toBe(0);
    expect(me.output).toMatch(/name\s+Test Owner/);
    expect(me.output).toContain('key: ****4321 (keyring)');
    expect(me.output).not.toContain(KEY);
    expect(server.requests.at(-1)?.authorization).toBe(`Bearer ${KEY}`);

    const logout = await runCli(['logout'], { env: env(), timeoutMs: 30_000 });
    expect(logout.code, logout.stderr).toBe(0);
    expect(logout.stderr).toContain('from the OS keyring');
    expect(entryInKeyring()).toBeNull();
    expect((await runCli(['auth', 'token'], { env: env(), timeoutMs: 30_000 })).code).toBe(3);
  }, 90_000);
});
