// @ts-check
// The start-up rows of `npm run bench` (issue 32): `booking --version` and `booking bookings get`
// against `node -e 0`, paired round by round, and what the key's place (config.json, the OS keyring)
// and a missing compile cache add.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { interleave, median, mustSucceed, paired, runOnce } from './measure.mjs';
import { API_KEY, SMALL } from './kit.mjs';
import { bookingId, bookingUid } from './server.mjs';
import { missingKeyringTools, startKeyringSession } from '../keyring-session.mjs';

/**
 * Start-up (issue 32's rows): `--version` and `bookings get` against `node -e 0`, with the key in the
 * environment, in config.json and in the OS keyring, and a first run without the compile cache.
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Ports} ports
 */
export async function rowStart(kit, ports) {
  const { note, record, rounds, envAt, booking, version: packageVersion, tmp } = kit;
  note(`start-up: node -e 0, booking --version, booking bookings get with and without compile cache (${rounds.start} rounds)`);
  const env = envAt(ports, SMALL);
  const i = 12_345;
  const runs = {
    node: { cmd: process.execPath, args: ['-e', '0'], env },
    version: booking(env, '--version'),
    get: booking(env, 'bookings', 'get', bookingUid(i)),
    getCold: booking({ ...env, NODE_DISABLE_COMPILE_CACHE: '1' }, 'bookings', 'get', bookingUid(i)),
    getFile: booking(keyInFile(tmp, env), 'bookings', 'get', bookingUid(i)),
  };
  const version = mustSucceed('booking --version', runOnce(runs.version, { capture: true })).stdout.toString();
  if (version !== `${packageVersion}\n`)
    throw new Error(`booking --version printed ${JSON.stringify(version)}, expected ${packageVersion}`);
  const got = mustSucceed('booking bookings get', runOnce(runs.get, { capture: true })).stdout.toString();
  if (!got.split('\n').includes(`uid\t${bookingUid(i)}`) || !got.split('\n').includes(`id\t${bookingId(i)}`)) {
    throw new Error(`booking bookings get printed an unexpected record:\n${got}`);
  }
  const t = interleave(runs, { rounds: rounds.start, warmup: 2 });
  record({
    name: '`booking --version`',
    ours: median(t.version),
    theirs: median(t.node),
    against: '`node -e 0`',
    ...paired(t, 'version', 'node'),
    op: '≤',
    target: 1.3,
    unit: 'time',
  });
  record({
    name: '`booking bookings get <uid>` (loopback)',
    ours: median(t.get),
    theirs: median(t.node),
    against: '`node -e 0`',
    ...paired(t, 'get', 'node'),
    op: '≤',
    target: 2.0,
    unit: 'time',
  });
  record({
    name: 'the same, the key in config.json (no keyring asked)',
    ours: median(t.getFile),
    theirs: median(t.node),
    against: '`node -e 0`',
    ...paired(t, 'getFile', 'node'),
    op: '≤',
    target: 2.0,
    unit: 'time',
  });
  await rowKeyring(kit, runs.getFile, booking(withoutKey(env), 'bookings', 'get', bookingUid(i)));
  record({
    name: 'the same, first run (no compile cache yet) (info)',
    ours: median(t.getCold),
    theirs: median(t.node),
    against: '`node -e 0`',
    ...paired(t, 'getCold', 'node'),
    unit: 'time',
  });
}

/**
 * The run's env with the key saved in a config.json of its own instead of BOOKING_API_KEY.
 * @param {string} tmp @param {import('./kit.mjs').Env} env
 */
function keyInFile(tmp, env) {
  const dir = join(tmp, 'config-file');
  mkdirSync(dir, { mode: 0o700, recursive: true });
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: { apiKey: API_KEY } } }), { mode: 0o600 });
  return { ...withoutKey(env), BOOKING_CONFIG_DIR: dir };
}

/** @param {import('./kit.mjs').Env} env */
function withoutKey(env) {
  const rest = { ...env };
  delete rest.BOOKING_API_KEY;
  return rest;
}

/**
 * The keyring lookup's cost: `bookings get` with the key in a real Secret Service (a private
 * gnome-keyring, scripts/keyring-session.mjs) against the same with the key in the file. Each
 * keyring lookup starts a helper process (see docs/security.md), which is most of the cost.
 * @param {import('./kit.mjs').Kit} kit @param {import('./kit.mjs').Run} fileRun @param {import('./kit.mjs').Run} template
 */
async function rowKeyring(kit, fileRun, template) {
  const { note, record, rounds, booking, tmp, skipped } = kit;
  const missing = missingKeyringTools();
  if (missing.length > 0)
    return void skipped.push(`the keyring row: ${missing.join(', ')} not installed (apt-get install dbus gnome-keyring)`);
  const session = await startKeyringSession();
  try {
    const dir = join(tmp, 'config-keyring');
    const env = { ...template.env, BOOKING_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: session.bus, BOOKING_KEYRING_TIMEOUT: '30' };
    const login = runOnce(booking(env, 'login', '--with-key', '--no-verify'), { input: `${API_KEY}\n` });
    mustSucceed('booking login (keyring)', login);
    if (!login.stderr.includes('in the OS keyring')) throw new Error(`booking login did not use the keyring: ${login.stderr.trim()}`);
    const keyring = { ...template, env };
    mustSucceed('booking bookings get (keyring)', runOnce(keyring));
    const count = Math.max(5, Math.round(rounds.start / 4));
    note(`keyring: booking bookings get with the key in gnome-keyring and in the file (${count} rounds)`);
    const t = interleave({ keyring, file: fileRun }, { rounds: count, warmup: 1 });
    record({
      name: 'the same, the key in the OS keyring (info: the keyring lookup)',
      ours: median(t.keyring),
      theirs: median(t.file),
      against: 'the key in config.json',
      ...paired(t, 'keyring', 'file'),
      unit: 'time',
    });
  } finally {
    session.stop();
  }
}
