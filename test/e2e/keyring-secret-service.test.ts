// The keyring for real, once: a private D-Bus session (dbus-run-session) with gnome-keyring-daemon
// unlocked by a known password, and bin/booking.js spawned against it: login, no key in config.json,
// whoami, logout, and the entry gone (asked of the binding directly, not through booking). .ci/run
// installs gnome-keyring and dbus; where they are missing, the test is skipped and says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, runCliTty, tempConfigDir } from '../helpers/cli';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';

const KEY = 'sk_test_secret_service_4321';
const have = (tool: string) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0;
const missing = ['dbus-run-session', 'gnome-keyring-daemon', 'dbus-send'].filter((t) => !have(t));
const why = `skipped: ${missing.join(', ')} not installed (apt-get install gnome-keyring dbus, as .ci/run does)`;
if (missing.length > 0) console.warn(`keyring-secret-service.test.ts ${why}`);

// Inside the session: unlock a fresh keyring with a known password (gnome-keyring reads it on stdin),
// wait until the Secret Service owns its bus name, say the bus address, and hold the session open
// until the test closes stdin.
const SESSION = `
printf '%s' keyring-test-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
for i in $(seq 100); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \\
    string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.1
done
echo "BUS=$DBUS_SESSION_BUS_ADDRESS"
read -r _
`;

describe.skipIf(missing.length > 0)('against a real Secret Service (gnome-keyring in a private D-Bus session)', () => {
  let session: ChildProcessWithoutNullStreams;
  let bus: string;
  let home: string;
  let server: ShapeServer;
  const cfg = tempConfigDir();

  beforeAll(async () => {
    home = mkdtempSync(join(tmpdir(), 'booking-keyring-home-'));
    server = await startShapeServer({ shape: 'data-meta', apiKey: KEY });
    session = spawn('dbus-run-session', ['--', 'sh', '-c', SESSION], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home },
    });
    bus = await new Promise<string>((resolve, reject) => {
      let out = '';
      session.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /BUS=(\S+)/.exec(out);
        if (m) resolve(m[1]!);
      });
      session.on('exit', (code) => reject(new Error(`the D-Bus session ended (${code}) before the keyring was up`)));
    });
  }, 30_000);

  afterAll(async () => {
    // Closing stdin ends the session's shell; dbus-run-session then stops its bus, and the keyring
    // daemon with it.
    session?.stdin.end();
    await server?.close();
    cfg.cleanup();
    rmSync(home, { recursive: true, force: true });
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

describe.skipIf(missing.length === 0)('against a real Secret Service', () => {
  it.skip(why, () => {});
});
