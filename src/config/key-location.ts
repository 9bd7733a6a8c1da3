// Where a profile's API key lives, and the order it is looked for in: BOOKING_API_KEY, then the OS
// keyring, then config.json. `login` saves into the keyring when one answers (else the 0600 file, with
// a notice); BOOKING_KEY_STORE or the profile's keyStore setting pins one store, and a pinned keyring
// that does not answer is an error, never a quiet fallback to plain text.
//
// A profile whose key is in the file (saved there by an earlier version, by --insecure-storage or as
// the fallback) is not looked up in the keyring unless the keyring is pinned: the keyring binding then
// never loads, and such runs start as fast as before. The next login moves that key into the keyring.
import type { ConfigStore, Profile } from './types';
import { UsageError } from '../base/errors';
import { KeyringTimeoutError, KeyringUnavailableError, keyringText, openKeyring, type KeyringOp } from './keyring';

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
  return fileKey === undefined ? { key: undefined, why } : { key: fileKey, source: 'file' };
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
      return { store: 'keyring' };
    } catch (err) {
      if (!(err instanceof KeyringUnavailableError)) throw err;
      if (mode === 'keyring') throw pinnedUnavailable(err, from);
      notice = `no OS keyring (${err.message}); the key is saved in plain text in ${config.path} (mode 0600).`;
    }
  }
  await config.setValues(scope.name, { baseUrl: scope.baseUrl, apiKey: key });
  return { store: 'file', notice };
}

/** Removes the profile's key from the file and from the keyring; the stores it was found in. */
export async function removeKey(config: ConfigStore, scope: KeyScope): Promise<KeySource[]> {
  const { mode, from } = keyStoreMode(scope.env, scope.name, scope.profile);
  const removed: KeySource[] = [];
  if (scope.profile.apiKey !== undefined) {
    await config.unsetKeys(scope.name, ['apiKey']);
    removed.push('file');
  }
  if (mode === 'file') return removed;
  try {
    if ((await keyringOne(scope, 'delete')) === true) removed.push('keyring');
  } catch (err) {
    if (!(err instanceof KeyringUnavailableError)) throw err;
    if (mode === 'keyring') throw pinnedUnavailable(err, from);
    // Auto, and no keyring here: nothing can have been saved in one from this session.
  }
  return removed;
}

/**
 * For `booking profiles`: the keyring's keys of the given profiles (name → base URL), asked in one
 * call. Profiles without an entry are absent; a keyring that does not answer is `why`.
 */
export async function keyringKeys(
  env: Env,
  signal: AbortSignal,
  profiles: [string, string][],
): Promise<{ keys: Map<string, string>; why?: string }> {
  const keys = new Map<string, string>();
  if (profiles.length === 0) return { keys };
  const ops: KeyringOp[] = profiles.map(([name, baseUrl]) => ({ op: 'get', ...keyringEntry(name, baseUrl) }));
  try {
    const results = await openKeyring(env, signal).run(ops);
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
  return openKeyring(scope.env, scope.signal).one({ op, ...entry, ...(secret === undefined ? {} : { secret }) });
}

function pinnedUnavailable(err: Error, from: string | undefined): UsageError {
  return new UsageError(
    `${from ?? 'BOOKING_KEY_STORE'} pins the key store to keyring, but no OS keyring answered: ${err.message}.`,
    'start one (a desktop session with a Secret Service such as gnome-keyring), or choose the file: BOOKING_KEY_STORE=file, or booking login --insecure-storage.',
  );
}
