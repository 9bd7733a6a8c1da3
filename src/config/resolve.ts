// From profile + env + flags to what an API command connects with. Order: --base-url (or
// BOOKING_BASE_URL, through commander) over the profile's baseUrl; the key from BOOKING_API_KEY, the
// OS keyring or config.json, in that order (key-location.ts).
import type { ConfigStore, Connection } from './types';
import type { GlobalOptions } from '../base/globals';
import { AuthError, UsageError } from '../base/errors';
import { assertTransportAllowed } from './transport';
import { apiKeyValue, baseUrlText, parseBaseUrl, profileFlag } from './keys';
import { lookupKey } from './key-location';
import type { WaitNote } from './keyring';
import { checkZone } from '../output/time-zone';

type Env = Record<string, string | undefined>;

export async function resolveConnection(
  store: ConfigStore,
  globals: GlobalOptions,
  env: Env,
  signal: AbortSignal = new AbortController().signal,
  note?: WaitNote,
): Promise<Connection> {
  const name = globals.profile;
  const profile = store.getProfile(name);
  const baseText = present(globals.baseUrl) ?? present(profile.baseUrl);
  if (baseText === undefined) throw missingBaseUrl(name);
  const baseUrl = parseBaseUrl(baseText);
  assertTransportAllowed(baseUrl, globals.allowHttp);
  const found = await lookupKey({ env, signal, name, profile, baseUrl: baseUrlText(baseUrl), note });
  if (found.key === undefined) {
    const why = found.why ? `; ${found.why}` : '';
    throw new AuthError(`no API key for profile ${name} (and BOOKING_API_KEY is not set)${why}.`, `run: booking login${profileFlag(name)}`);
  }
  // Trimmed as login trims it: `export BOOKING_API_KEY=$(cat key.txt)` may well end in a newline.
  const where =
    found.source === 'env'
      ? 'BOOKING_API_KEY'
      : found.source === 'keyring'
        ? `the OS keyring's key of profile ${name}`
        : `the apiKey of profile ${name} in ${store.path}`;
  const apiKey = checkedKey(found.key, where);
  const connection: Connection = { profile: name, baseUrl, apiKey, keySource: found.source };
  if (profile.cursorPath) connection.cursorPath = profile.cursorPath;
  if (profile.itemsPath) connection.itemsPath = profile.itemsPath;
  if (profile.cursorParam) connection.cursorParam = profile.cursorParam;
  if (profile.cursorFromLast) connection.cursorFromLast = profile.cursorFromLast;
  if (profile.tz) connection.tz = checkZone(profile.tz, `the tz of profile ${name} in ${store.path}`);
  return connection;
}

function checkedKey(raw: string, where: string): string {
  try {
    return apiKeyValue(raw);
  } catch (err) {
    if (err instanceof UsageError) throw new UsageError(`${where}: ${err.message}`);
    throw err;
  }
}

/** What to do about a key the service refused (401/403): where it came from decides. */
export function refusedKeyHint(connection: Connection): string {
  if (connection.keySource === 'env')
    return "the key comes from BOOKING_API_KEY, which wins over the profile's saved key: check it, or unset it.";
  return `run: booking login${profileFlag(connection.profile)}`;
}

export function missingBaseUrl(profile: string): AuthError {
  return new AuthError(
    `no base URL for profile ${profile}: there is no built-in one.`,
    `run: booking login --base-url URL${profileFlag(profile)}`,
  );
}

/** A value that counts as set: empty strings (FOO= in the env) do not. */
export function present(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
