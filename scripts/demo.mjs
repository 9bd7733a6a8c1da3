// @ts-check
// `npm run demo`: starts a sandbox on a free port and runs the CLI against it as a user would, each
// command printed before its output: login, whoami, paging, get, event types, a webhook listener
// receiving the sandbox's signed deliveries, and verification of a saved capture. Leaves nothing behind:
// the sandbox and the listener are stopped in `finally` and on Ctrl-C, the temp folder removed.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'booking.js');
const TICK = '0.4';
const LISTEN_SECONDS = 5;

const tmp = mkdtempSync(join(tmpdir(), 'booking-demo-'));
const saveDir = join(tmp, 'captures');
/** @type {NodeJS.ProcessEnv} */
const env = { ...cleanEnv(), BOOKING_CONFIG_DIR: join(tmp, 'config') };
/**
 * A CLI run: `exited` resolves with its exit code, or the signal that ended it.
 * @typedef {import('node:child_process').ChildProcess & { exited: Promise<number | NodeJS.Signals> }} Child
 */
/** @type {Set<Child>} */
const children = new Set();
/** @type {string[]} */
const failed = [];
// Set on Ctrl-C: from then on no step starts and nothing more is shown (the terminal sent the same
// SIGINT to the running command, which ends on it; the next step must not start after it).
let interrupted = false;
class Stopped extends Error {}

/** @param {string} s */
const bold = (s) => (process.stdout.isTTY && !process.env.NO_COLOR ? `\x1b[1m${s}\x1b[0m` : s);
/** @param {string} a */
const quote = (a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`);
/** @param {string} line */
const show = (line) => {
  if (interrupted) throw new Stopped();
  process.stdout.write(`\n${bold(`$ ${line}`)}\n`);
};

function cleanEnv() {
  /** @type {NodeJS.ProcessEnv} */
  const out = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!/^(BOOKING_|HTTPS?_PROXY$|https?_proxy$)/.test(k)) out[k] = v;
  }
  return out;
}

/**
 * @param {string[]} args
 * @param {import('node:child_process').StdioOptions} stdio
 * @returns {Child}
 */
function start(args, stdio) {
  if (interrupted) throw new Stopped();
  const child = /** @type {Child} */ (spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio }));
  children.add(child);
  // 'close' always gives a code or, when a signal ended the child, the signal.
  child.exited = new Promise((res) => child.on('close', (code, signal) => res(/** @type {number | NodeJS.Signals} */ (code ?? signal))));
  child.exited.then(() => children.delete(child));
  return child;
}

/**
 * Runs one CLI command, printing it first; output goes straight to this terminal unless captured.
 * @param {string[]} args
 * @param {{ stdin?: string, capture?: boolean, expect?: number, shown?: string }} [options]
 */
async function booking(args, { stdin, capture = false, expect = 0, shown } = {}) {
  show(shown ?? `booking ${args.map(quote).join(' ')}`);
  const child = start(args, [stdin === undefined ? 'ignore' : 'pipe', capture ? 'pipe' : 'inherit', 'inherit']);
  let out = '';
  if (capture) child.stdout?.on('data', (c) => (out += c));
  if (stdin !== undefined) child.stdin?.end(stdin);
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await child.exited;
  clearTimeout(timer);
  if (interrupted) throw new Stopped();
  if (capture) process.stdout.write(out);
  if (code !== expect) {
    failed.push(`booking ${args[0]}${args[1] && !args[1].startsWith('-') ? ` ${args[1]}` : ''} (exit ${code}, expected ${expect})`);
    process.stdout.write(`   ^ exit ${code}, expected ${expect}\n`);
  }
  return out;
}

/** @returns {Promise<number>} */
function freePort() {
  return new Promise((res, rej) => {
    const s = createServer().once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      // Listening on a TCP port, address() is an AddressInfo.
      const { port } = /** @type {import('node:net').AddressInfo} */ (s.address());
      s.close(() => res(port));
    });
  });
}

/**
 * @param {Child} child
 * @param {NodeJS.Signals} [signal]
 */
async function stop(child, signal = 'SIGTERM') {
  if (child.exitCode !== null || child.signalCode !== null) return child.exited;
  child.kill(signal);
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  const code = await child.exited;
  clearTimeout(timer);
  return code;
}

/**
 * The sandbox in the background; resolves with what it printed on start (one JSON line).
 * @param {number} listenPort
 * @returns {Promise<{ base_url: string, api_key: string, webhook_secret: string }>}
 */
async function startSandbox(listenPort) {
  const args = ['sandbox', '--port', '0', '--json', '--tick', TICK, '--webhook-url', `http://127.0.0.1:${listenPort}/hooks`];
  show(`booking ${args.join(' ')} &`);
  // Its request log would drown the demo; it is kept to explain a start-up failure.
  const child = start(args, ['ignore', 'pipe', 'pipe']);
  let log = '';
  child.stderr?.on('data', (c) => (log += c));
  /** @type {string} */
  const line = await new Promise((res, rej) => {
    let out = '';
    child.stdout?.on('data', (c) => {
      out += c;
      if (out.includes('\n')) res(out.slice(0, out.indexOf('\n')));
    });
    child.exited.then((code) => rej(new Error(`the sandbox exited (${code}) before it was ready:\n${log}`)));
  });
  process.stdout.write(`${line}\n`);
  return JSON.parse(line);
}

async function run() {
  const listenPort = await freePort();
  const info = await startSandbox(listenPort);
  const { base_url: url, api_key: key, webhook_secret: secret } = info;

  await booking(['login', '--base-url', url, '--with-key'], {
    stdin: `${key}\n`,
    shown: `echo ${key} | booking login --base-url ${url} --with-key`,
  });
  await booking(['whoami']);
  await booking(['bookings', 'list', '--page-size', '5', '--limit', '12']);
  const picked = await booking(['bookings', 'list', '--status', 'confirmed', '--limit', '1', '--fields', 'uid,title', '-o', 'tsv'], {
    capture: true,
  });
  const uid = picked.split('\t')[0]?.trim() || (await firstUid(url, key));
  await booking(['bookings', 'get', uid]);
  await booking(['event-types']);

  // The listener runs for a few seconds while the sandbox's lifecycle sends it deliveries, then gets
  // Ctrl-C as a user would give it.
  // The secret from the environment, as the README does: --secret on a command line is visible in ps.
  show(`export BOOKING_WEBHOOK_SECRET=${quote(secret)}`);
  env.BOOKING_WEBHOOK_SECRET = secret;
  const listenArgs = ['webhook', 'listen', '--port', String(listenPort), '--save-dir', saveDir];
  show(`booking ${listenArgs.map(quote).join(' ')}    # Ctrl-C after ${LISTEN_SECONDS}s`);
  const listener = start(listenArgs, ['ignore', 'inherit', 'inherit']);
  await Promise.race([new Promise((r) => setTimeout(r, LISTEN_SECONDS * 1000)), listener.exited]);
  const listenCode = await stop(listener, 'SIGINT');
  if (interrupted) throw new Stopped();
  if (listenCode !== 0 && listenCode !== 130) failed.push(`booking webhook listen (exit ${listenCode})`);

  const captures = listCaptures();
  if (captures.length === 0) {
    failed.push('webhook listen saved no capture');
    return;
  }
  const capture = join(saveDir, captures[0]);
  await booking(['webhook', 'verify', '--request', capture]);
  // The same delivery with one byte of its body changed is caught.
  const tampered = join(tmp, 'tampered.http');
  copyFileSync(capture, tampered);
  const bytes = readFileSync(tampered);
  const at = bytes.lastIndexOf('"status":"') + 10;
  if (at > 10) bytes[at] = bytes[at] === 0x78 ? 0x79 : 0x78;
  writeFileSync(tampered, bytes);
  await booking(['webhook', 'verify', '--request', tampered], { expect: 1 });
}

function listCaptures() {
  try {
    return readdirSync(saveDir)
      .filter((f) => !f.startsWith('.'))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Fallback when `bookings list --fields … -o tsv` gave nothing to pick from.
 * @param {string} url
 * @param {string} key
 * @returns {Promise<string>}
 */
async function firstUid(url, key) {
  const r = await fetch(`${url}/api/v1/bookings?limit=1&status=confirmed`, { headers: { authorization: `Bearer ${key}` } });
  const page = /** @type {{ data: { uid: string }[] }} */ (await r.json());
  return page.data[0].uid;
}

async function cleanup() {
  await Promise.all([...children].map((c) => stop(c)));
  rmSync(tmp, { recursive: true, force: true });
}

for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(sig, () => {
    if (interrupted) return;
    interrupted = true;
    process.stdout.write('\ndemo: interrupted; stopping the sandbox and cleaning up\n');
    void cleanup().finally(() => process.exit(130));
  });
}

let code = 0;
try {
  await run();
  if (failed.length > 0) {
    process.stderr.write(`\ndemo: ${failed.length} step(s) failed:\n${failed.map((f) => `  - ${f}`).join('\n')}\n`);
    code = 1;
  } else {
    process.stdout.write('\nDemo done: the sandbox served every command and its deliveries verified as authentic.\n');
  }
} catch (err) {
  if (!interrupted) process.stderr.write(`\ndemo: ${err instanceof Error ? err.message : String(err)}\n`);
  code = 1;
} finally {
  await cleanup();
}
process.exit(interrupted ? 130 : code);
