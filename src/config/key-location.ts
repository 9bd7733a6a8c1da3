// Where a profile's API key lives, and the order it is looked for in: BOOKING_API_KEY, then the OS
// keyring, then config.json. `login` saves into the keyring when one answers (else the 0600 file, with
// a notice); BOOKING_KEY_STORE or the profile's keyStore setting pins one store, and a pinned keyring
// that does not answer is an error, never a quiet fallback to plain text.
//
// A profile whose key is in the file (saved there by an earlier version, by --insecure-storage or as
// the fallback) is not looked up in the keyring unless the keyring is pinned: the keyring binding then
// never loads, and such runs start as fast as before. The next login moves that key into the keyring.
import type { ConfigStore, Profile } from './types';
import { FailureError, UsageError } from '../base/errors';
import { profileFlag } from './keys';
import { KeyringTimeoutError, KeyringUnavailableError, keyringText, openKeyring, type KeyringOp, type WaitNote } from './keyring';

type Env = Record<string, string | undefined>;

export type KeySource = 'env' | 'keyring' | 'file';
type StoreMode = 'auto' | 'keyring' | 'file';

interface Mode {
  mode: StoreMode;
  /** Who pinned it, for messages: "BOOKING_KEY_STORE" or "the keyStore setting of profile x". */
  from?: string;
}

/** BOOKING_KEY_STORE, else the profile's keyStore setting, else auto. */
export function keyStoreMode(env: Env, name: string, profile: Profile): Mode {
  const fromEnv = env.BOOKING_KEY_STORE;
  if (fromEnv !== undefined && fromEnv !== '') {
    if (fromEnv !== 'keyring' && fromEnv !== 'file' && fromEnv !== 'auto')
      throw new UsageError(`BOOKING_KEY_STORE must be keyring, file or auto, not ${JSON.stringify(fromEnv)}.`);
    return fromEnv === 'auto' ? { mode: 'auto' } : { mode: fromEnv, from: 'BOOKING_KEY_STORE' };
  }
  const setting = profile.keyStore;
  if (setting === 'keyring' || setting === 'file') return { mode: setting, from: `the keyStore setting of profile ${name}` };
  // A hand-edited value `config set` would refuse: said, never quietly taken for auto.
  if (setting !== undefined && setting !== '' && setting !== 'auto')
    throw new UsageError(
      `the keyStore setting of profile ${name} must be keyring or file, not ${JSON.stringify(setting)}; fix it with \`booking config set keyStore keyring${profileFlag(name)}\` (or file), or \`booking config unset keyStore${profileFlag(name)}\`.`,
    );
  return { mode: 'auto' };
}

/** The store setting in force for a login; exit 2 for an unknown one, or --insecure-storage against a pinned keyring. */
export function loginStore(env: Env, name: string, profile: Profile, insecureStorage: boolean): Mode {
  const pinned = keyStoreMode(env, name, profile);
  if (insecureStorage && pinned.mode === 'keyring')
    throw new UsageError(`--insecure-storage conflicts with ${pinned.from}, which pins the key store to keyring: drop one of them.`);
  return pinned;
}

/** One keyring entry per profile and base URL (gh's "gh:github.com" + user, in booking's terms). */
export function keyringEntry(profile: string, baseUrl: string): { service: string; account: string } {
  return { service: `booking-cli:${baseUrl}`, account: profile };
}

export interface KeyScope {
  env: Env;
  signal: AbortSignal;
  /** The profile's name and settings as read from config.json. */
  name: string;
  profile: Profile;
  /** The base URL in force (flag, env or profile), as saved and shown. */
  baseUrl: string;
  /** The waiting note while the keyring is asked (on a terminal). */
  note?: WaitNote;
}

export type Found = { key: string; source: KeySource } | { key: undefined; why?: string };

/** The key this run uses, and where it came from; `why` says why the keyring had none to give. */
export async function lookupKey(scope: KeyScope): Promise<Found> {
  const envKey = scope.env.BOOKING_API_KEY;
  if (envKey !== undefined && envKey !== '') return { key: envKey, source: 'env' };
  const { mode, from } = keyStoreMode(scope.env, scope.name, scope.profile);
  const fileKey = scope.profile.apiKey === '' ? undefined : scope.profile.apiKey;
  if (mode === 'file' || (mode === 'auto' && fileKey !== undefined))
    return fileKey === undefined ? { key: undefined } : { key: fileKey, source: 'file' };
  let why: string | undefined;
  try {
    const value = await keyringOne(scope, 'get');
    if (typeof value === 'string' && value !== '') return { key: value, source: 'keyring' };
  } catch (err) {
    if (!(err instanceof KeyringUnavailableError)) throw err;
    if (mode === 'keyring') throw pinnedUnavailable(err, from);
    why = `no OS keyring answered (${err.message})`;
  }
  // Pinned to the keyring: a key in the file is plain text the pin rules out, never a quiet fallback
  // (a keyring that answers but is locked gives no key, as one without an entry does).
  if (mode === 'keyring')
    return {
      key: undefined,
      why:
        fileKey === undefined
          ? otherBaseUrl(scope)
          : `${from} pins the key store to keyring, which gave none; the key in the config file is not used (booking login moves it into the keyring)`,
    };
  return fileKey === undefined ? { key: undefined, why: why ?? otherBaseUrl(scope) } : { key: fileKey, source: 'file' };
}

/**
 * Why the keyring had no key for a --base-url (or BOOKING_BASE_URL) other than the profile's own: a
 * key login saved is kept for the base URL it was saved with (docs/choices.md), never sent elsewhere.
 */
function otherBaseUrl(scope: KeyScope): string | undefined {
  const own = scope.profile.baseUrl;
  if (!own || own === scope.baseUrl) return undefined;
  return `a key login saved is kept for the base URL it was saved with (this profile's is ${own}), and not sent to ${scope.baseUrl}`;
}

export interface Saved {
  store: 'keyring' | 'file';
  /** Why the file was used although it was not asked for: one line for the user. */
  notice?: string;
}

/** Saves base URL and key: into the keyring (and out of the file) when it answers, else into the file. */
export async function saveKey(config: ConfigStore, scope: KeyScope, key: string, insecureStorage: boolean): Promise<Saved> {
  const { mode, from } = loginStore(scope.env, scope.name, scope.profile, insecureStorage);
  let notice: string | undefined;
  if (!insecureStorage && mode !== 'file') {
    try {
      await keyringOne(scope, 'set', key);
      // A key an earlier version (or a fallback) left in the file goes now: one copy, in the keyring.
      await config.setValues(scope.name, { baseUrl: scope.baseUrl }, ['apiKey']);
      await forgetOldEntry(scope);
      return { store: 'keyring' };
    } catch (err) {
      if (!(err instanceof KeyringUnavailableError)) throw err;
      if (mode === 'keyring') throw pinnedUnavailable(err, from);
      notice = `no OS keyring (${err.message}); the key is saved in plain text in ${config.path} (mode 0600).`;
    }
  }
  await config.setValues(scope.name, { baseUrl: scope.baseUrl, apiKey: key });
  // Not asked when the file store is pinned, or when the keyring just did not answer.
  if (mode !== 'file' && !notice) await forgetOldEntry(scope);
  return { store: 'file', notice };
}

/**
 * A login moves the profile to scope.baseUrl: the keyring entry it had for its old base URL goes (no
 * logout would find it, and a `config set baseUrl` back would bring the old key back to life). Best
 * effort: the new key is saved whatever this does.
 */
async function forgetOldEntry(scope: KeyScope): Promise<void> {
  const old = scope.profile.baseUrl;
  if (old && old !== scope.baseUrl) await keyringOne({ ...scope, baseUrl: old }, 'delete').catch(() => {});
}

/**
 * Removes the profile's key from the file and from the keyring (its entries for the base URL in force
 * and for the profile's own, when --base-url or BOOKING_BASE_URL names another); the stores it was
 * found in. A keyring that does not answer when the key is not in the file is an error: a key saved
 * in it from another session may be there, and "nothing to remove" would be a guess.
 */
export async function removeKey(config: ConfigStore, scope: KeyScope): Promise<KeySource[]> {
  const { mode, from } = keyStoreMode(scope.env, scope.name, scope.profile);
  const saved = scope.profile.baseUrl;
  let fromKeyring = false;
  let unanswered: Error | undefined;
  if (mode !== 'file') {
    const urls = saved && saved !== scope.baseUrl ? [scope.baseUrl, saved] : [scope.baseUrl];
    try {
      const results = await openKeyring(scope.env, scope.signal, scope.note).run(
        urls.map((url) => ({ op: 'delete', ...keyringEntry(scope.name, url) })),
      );
      const failed = results.find((r) => !r.ok);
      if (failed && !failed.ok) throw new KeyringUnavailableError(keyringText(failed.error));
      fromKeyring = results.some((r) => r.ok && r.value === true);
    } catch (err) {
      if (!(err instanceof KeyringUnavailableError || err instanceof KeyringTimeoutError)) throw err;
      // Pinned: an error before anything is removed.
      if (mode === 'keyring') throw pinnedUnavailable(err, from);
      unanswered = err;
    }
  }
  const removed: KeySource[] = [];
  if (scope.profile.apiKey !== undefined) {
    await config.unsetKeys(scope.name, ['apiKey']);
    removed.push('file');
  }
  if (fromKeyring) removed.push('keyring');
  // The key was in the file (where login puts it when no keyring answers): that was the one.
  if (unanswered && removed.length === 0 && saved !== undefined)
    throw new FailureError(
      `${config.path} holds no API key for profile ${scope.name}, and the OS keyring did not answer (${unanswered.message.replace(/\.$/, '')}): whether it holds one could not be checked, and none was removed.`,
      "run booking logout where the keyring answers (the session that saved the key), or delete its entry booking-cli:<base URL> with the keyring's own tool.",
    );
  return removed;
}

/**
 * `config set baseUrl`: the profile's key in the keyring follows it to the new base URL, as a key in
 * the file does (it belongs to the profile, and the entry left behind would be found by no logout).
 * Nothing to move, or no keyring: nothing is done (lookup says so when the key is wanted); a keyring
 * that does not answer in time is said, and the setting saved all the same.
 */
export async function moveKey(scope: KeyScope, to: string): Promise<string | undefined> {
  if (scope.baseUrl === to) return undefined;
  try {
    const key = await keyringKeyOf(scope);
    if (key === undefined) return undefined;
    // Set, then delete: never the other way round, which a failure in between would leave with no key.
    await keyringOne({ ...scope, baseUrl: to }, 'set', key);
    await keyringOne(scope, 'delete');
    return `the API key of profile ${scope.name} moved with it in the OS keyring.`;
  } catch (err) {
    if (err instanceof KeyringUnavailableError) return undefined;
    if (err instanceof KeyringTimeoutError)
      return `the OS keyring did not answer in time: a key saved in it for ${scope.baseUrl} stays there (run booking login).`;
    throw err;
  }
}

/**
 * For `booking profiles`: the keyring's keys of the given profiles (name → base URL), asked in one
 * call. Profiles without an entry are absent; a keyring that does not answer is `why`.
 */
export async function keyringKeys(
  env: Env,
  signal: AbortSignal,
  profiles: [string, string][],
  note?: WaitNote,
): Promise<{ keys: Map<string, string>; why?: string }> {
  const keys = new Map<string, string>();
  if (profiles.length === 0) return { keys };
  const ops: KeyringOp[] = profiles.map(([name, baseUrl]) => ({ op: 'get', ...keyringEntry(name, baseUrl) }));
  try {
    const results = await openKeyring(env, signal, note).run(ops);
    profiles.forEach(([name], i) => {
      const r = results[i];
      if (r?.ok && typeof r.value === 'string' && r.value !== '') keys.set(name, r.value);
    });
    const failed = results.find((r) => !r.ok);
    return failed && !failed.ok ? { keys, why: keyringText(failed.error) } : { keys };
  } catch (err) {
    if (err instanceof KeyringUnavailableError || err instanceof KeyringTimeoutError) return { keys, why: err.message };
    throw err;
  }
}

async function keyringOne(scope: KeyScope, op: KeyringOp['op'], secret?: string) {
  const entry = keyringEntry(scope.name, scope.baseUrl);
  return openKeyring(scope.env, scope.signal, scope.note).one({ op, ...entry, ...(secret === undefined ? {} : { secret }) });
}

function pinnedUnavailable(err: Error, from: string | undefined): UsageError {
  return new UsageError(
    `${from ?? 'BOOKING_KEY_STORE'} pins the key store to keyring, but no OS keyring answered: ${err.message}.`,
    'start one (a desktop session with a Secret Service such as gnome-keyring), or choose the file: BOOKING_KEY_STORE=file, or booking login --insecure-storage.',
  );
}

/**
 * The key the keyring holds for the profile at scope.baseUrl, where its key may be there at all (not
 * in the file, the file store not pinned).
 */
async function keyringKeyOf(scope: KeyScope): Promise<string | undefined> {
  if (scope.profile.apiKey !== undefined || keyStoreMode(scope.env, scope.name, scope.profile).mode === 'file') return undefined;
  const key = await keyringOne(scope, 'get');
  return typeof key === 'string' && key !== '' ? key : undefined;
}

/** Whether the keyring holds the profile's key for scope.baseUrl (no keyring, or none in time: false). */
export async function keyringHolds(scope: KeyScope): Promise<boolean> {
  try {
    return (await keyringKeyOf(scope)) !== undefined;
  } catch (err) {
    if (err instanceof KeyringUnavailableError || err instanceof KeyringTimeoutError) return false;
    throw err;
  }
}
