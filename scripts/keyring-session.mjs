// @ts-check
// A private Secret Service for the keyring test and the bench: dbus-run-session with
// gnome-keyring-daemon unlocked by a known password (it reads the password on stdin), in a home
// folder of its own. Resolves once the service owns its bus name, with the bus address to pass on as
// DBUS_SESSION_BUS_ADDRESS; stop() closes the session's stdin, which ends its shell, its bus and the
// daemon with them. `missingKeyringTools()` names what is not installed (Debian: dbus, gnome-keyring).
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const TOOLS = ['dbus-run-session', 'dbus-send', 'gnome-keyring-daemon'];

export function missingKeyringTools() {
  return TOOLS.filter((tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0);
}

const SESSION = `
printf '%s' booking-keyring-password | gnome-keyring-daemon --unlock --components=secrets >/dev/null || exit 1
for i in $(seq 200); do
  dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus org.freedesktop.DBus.NameHasOwner \\
    string:org.freedesktop.secrets 2>/dev/null | grep -q 'boolean true' && break
  sleep 0.1
done
echo "BUS=$DBUS_SESSION_BUS_ADDRESS"
read -r _
`;

/** @returns {Promise<{ bus: string, stop(): void }>} */
export function startKeyringSession() {
  const home = mkdtempSync(join(tmpdir(), 'booking-keyring-home-'));
  const session = spawn('dbus-run-session', ['--', 'sh', '-c', SESSION], {
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, XDG_DATA_HOME: join(home, 'data'), XDG_RUNTIME_DIR: home },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const stop = () => {
    session.stdin.end();
    rmSync(home, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    let out = '';
    session.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const m = /BUS=(\S+)/.exec(out);
      if (m) warmUp(m[1]).then(() => resolve({ bus: m[1], stop }), reject);
    });
    session.on('error', (err) => reject(err));
    session.on('exit', (code) => {
      rmSync(home, { recursive: true, force: true });
      reject(new Error(`the D-Bus session ended (exit ${code}) before the keyring was up`));
    });
  });
}

/**
 * The first write into a fresh keyring can take seconds (the daemon creates and encrypts its
 * collection), more than a D-Bus call waits on a loaded machine. One write and delete here, retried,
 * so the runs measured or tested after it meet a keyring that is ready.
 */
async function warmUp(bus) {
  const binding = createRequire(import.meta.url).resolve('@napi-rs/keyring');
  const code = `const { Entry } = require(${JSON.stringify(binding)});
const e = new Entry('booking-cli:warm-up', 'warm-up', { linux: { store: 'secret-service' } });
e.setPassword('x'); e.deletePassword();`;
  let last;
  for (let attempt = 0; attempt < 5; attempt++) {
    last = await new Promise((resolve) =>
      execFile(process.execPath, ['-e', code], { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: bus } }, (err, _out, stderr) =>
        resolve(
          err
            ? (stderr
                .trim()
                .split('\n')
                .find((l) => /Error/.test(l)) ?? String(err))
            : undefined,
        ),
      ),
    );
    if (last === undefined) return;
  }
  throw new Error(`the keyring did not take a first entry: ${last}`);
}
