// The OS keyring as booking uses it: a SecretStore (get, set, delete by service and account), every
// call bounded in time and ended by Ctrl-C. The real one runs each batch of calls in a child process
// (keyring-child.cjs): the native binding blocks the thread that calls it, sometimes for ever, and only
// a process can be killed out of that. Tests put an in-memory or failing store in its place with
// useKeyring(), as gh's tests do with keyring.MockInit().
import { FailureError, InterruptedError, oneLine, UsageError } from '../base/errors';

export type { KeyringOp, KeyringResult, SecretStore } from './keyring-types';
export { KeyringUnavailableError } from './keyring-types';
import { KeyringUnavailableError, type KeyringOp, type KeyringResult, type SecretStore } from './keyring-types';

/** The keyring did not answer in time: an error, never a silent fallback (it may be asking for a password). */
export class KeyringTimeoutError extends FailureError {}

type Env = Record<string, string | undefined>;

const DEFAULT_TIMEOUT_S = 5;

let override: SecretStore | undefined;

/** Tests: every keyring call goes to `store` until useKeyring(undefined). */
export function useKeyring(store: SecretStore | undefined): void {
  override = store;
}

/** Starts a waiting note (src/output/waiting.ts) for one keyring call; returns the function that ends it. */
export type WaitNote = () => () => void;

/** The keyring bound by BOOKING_KEYRING_TIMEOUT and the run's signal; `note` says so on a terminal while it is asked. */
export function openKeyring(env: Env, signal: AbortSignal, note?: WaitNote): BoundKeyring {
  return new BoundKeyring(override ?? systemKeyring(env), keyringTimeoutMs(env), signal, note);
}

function keyringTimeoutMs(env: Env): number {
  const raw = env.BOOKING_KEYRING_TIMEOUT;
  if (raw === undefined || raw === '') return DEFAULT_TIMEOUT_S * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new UsageError(`BOOKING_KEYRING_TIMEOUT must be a number of seconds above 0, not ${JSON.stringify(raw)}.`);
  return Math.round(seconds * 1000);
}

export class BoundKeyring {
  constructor(
    private readonly store: SecretStore,
    readonly timeoutMs: number,
    private readonly signal: AbortSignal,
    private readonly note?: WaitNote,
  ) {}

  /** The results in op order; KeyringTimeoutError after timeoutMs, InterruptedError on Ctrl-C. */
  async run(ops: KeyringOp[]): Promise<KeyringResult[]> {
    if (this.signal.aborted) throw new InterruptedError();
    const stop = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const bound = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(timeoutError(this.timeoutMs)), this.timeoutMs);
      onAbort = () => reject(new InterruptedError());
      this.signal.addEventListener('abort', onAbort, { once: true });
    });
    // Up to BOOKING_KEYRING_TIMEOUT with nothing on the screen otherwise (a locked keyring, a slow bus).
    const noted = this.note?.();
    try {
      return await Promise.race([this.store.run(ops, stop.signal), bound]);
    } finally {
      noted?.();
      clearTimeout(timer);
      if (onAbort) this.signal.removeEventListener('abort', onAbort);
      // Whatever ended the race, the call is over: a child still waiting on D-Bus is killed.
      stop.abort();
    }
  }

  /** One op; its error (unavailable) thrown. */
  async one(op: KeyringOp): Promise<string | boolean | null> {
    const [result] = await this.run([op]);
    if (!result) throw new KeyringUnavailableError('the keyring gave no answer');
    if (!result.ok) {
      // D-Bus gave up waiting for the keyring's reply: a keyring that is there but slow (busy, or
      // asking for a password), which the call may still complete later. Not "no keyring", so not
      // a reason to write the key into the file.
      if (/did not receive a reply|timed? ?out/i.test(result.error)) throw timeoutError(this.timeoutMs, 'its D-Bus call timed out');
      throw new KeyringUnavailableError(keyringText(result.error));
    }
    return result.value;
  }
}

/**
 * The keyring library's words, made into advice where they have a known meaning: "no result found"
 * is a D-Bus session whose Secret Service has no unlocked keyring (a server, a container, a desktop
 * whose login keyring was never created or stays locked).
 */
export function keyringText(raw: string): string {
  if (/no result found/i.test(raw))
    return 'the Secret Service has no unlocked keyring ("no result found"): unlock or create your login keyring (gnome-keyring-daemon --unlock, or the desktop\'s Passwords and Keys), or keep the key in the file: BOOKING_KEY_STORE=file';
  return oneLine(raw);
}

function timeoutError(ms: number, what = `it did not answer within ${ms / 1000} s`): KeyringTimeoutError {
  return new KeyringTimeoutError(
    `the OS keyring is not answering: ${what} (is it locked, waiting for a password?).`,
    'raise BOOKING_KEYRING_TIMEOUT (seconds), or keep the key in the config file: booking login --insecure-storage, or BOOKING_KEY_STORE=file.',
  );
}

/** The real keyring: Secret Service (Linux), Keychain (macOS), Credential Manager (Windows). */
function systemKeyring(env: Env): SecretStore {
  return {
    async run(ops, signal) {
      // Without a session bus there is nothing to ask, and asking would cost a process start.
      if (process.platform === 'linux' && !env.DBUS_SESSION_BUS_ADDRESS)
        throw new KeyringUnavailableError('no D-Bus session: DBUS_SESSION_BUS_ADDRESS is not set');
      const { runKeyringChild } = await import('./keyring-process');
      return runKeyringChild(ops, env, signal);
    },
  };
}
