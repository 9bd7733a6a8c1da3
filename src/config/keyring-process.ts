// Starting keyring-child.cjs and talking to it. The request (keys included) goes on its stdin, the
// answer comes on its stdout; its environment is a short list of what a keyring needs to be found,
// so no key or secret of booking's own (BOOKING_API_KEY, BOOKING_WEBHOOK_SECRET) reaches it.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { KeyringUnavailableError, type KeyringOp, type KeyringResult } from './keyring-types';

/** What the binding reads to find the keyring on each platform; nothing else is passed on. */
const PASSED_ENV = [
  'PATH',
  'HOME',
  'USER',
  'LOGNAME',
  'LANG',
  'DBUS_SESSION_BUS_ADDRESS',
  'XDG_RUNTIME_DIR',
  'TMPDIR',
  'SystemRoot',
  'SYSTEMROOT',
  'USERPROFILE',
  'APPDATA',
  'LOCALAPPDATA',
  'TEMP',
  'TMP',
];

// In the bundle, import.meta.url is dist/cli.cjs and the build copies the child beside it; under
// vitest it is this file, with the child next to it in src/config/.
const CHILD = fileURLToPath(new URL('./keyring-child.cjs', import.meta.url));

export function runKeyringChild(ops: KeyringOp[], env: Record<string, string | undefined>, signal: AbortSignal): Promise<KeyringResult[]> {
  const childEnv: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = env[name];
    if (value !== undefined) childEnv[name] = value;
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CHILD], { env: childEnv, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const kill = () => child.kill('SIGKILL');
    signal.addEventListener('abort', kill, { once: true });
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.stdin.on('error', () => {});
    child.on('error', (e) => reject(new KeyringUnavailableError(`cannot start the keyring helper: ${e.message}`)));
    child.on('close', (code) => {
      signal.removeEventListener('abort', kill);
      if (signal.aborted) return; // the caller has already settled (timeout or Ctrl-C)
      try {
        const answer = JSON.parse(Buffer.concat(out).toString('utf8')) as { results: KeyringResult[] };
        // A failure before any op ran (the binding did not load) is one result: it stands for all.
        const [first] = answer.results;
        if (answer.results.length !== ops.length && first && !first.ok) throw new KeyringUnavailableError(first.error);
        resolve(answer.results);
      } catch (e) {
        if (e instanceof KeyringUnavailableError) reject(e);
        else {
          // Node's own report of a crash starts with a source line: its "Error: …" line says why.
          const lines = Buffer.concat(err).toString('utf8').trim().split('\n');
          const why = lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0] ?? `it exited with code ${code}`;
          reject(new KeyringUnavailableError(`the keyring helper failed: ${why}`));
        }
      }
    });
    child.stdin.end(JSON.stringify({ ops }));
  });
}
