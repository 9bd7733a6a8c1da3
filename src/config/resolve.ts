// From profile + env + flags to what an API command connects with. Order: --base-url (or
// BOOKING_BASE_URL, through commander) over the profile's baseUrl; BOOKING_API_KEY over its apiKey.
import type { ConfigStore, Connection } from './types';
import type { GlobalOptions } from '../context';
import { AuthError } from '../errors';
import { assertTransportAllowed } from '../http/url';
import { parseBaseUrl } from './keys';

type Env = Record<string, string | undefined>;

export function resolveConnection(store: ConfigStore, globals: GlobalOptions, env: Env): Connection {
  const name = globals.profile;
  const profile = store.getProfile(name);
  const baseText = present(globals.baseUrl) ?? present(profile.baseUrl);
  if (baseText === undefined) throw missingBaseUrl(name);
  const baseUrl = parseBaseUrl(baseText);
  assertTransportAllowed(baseUrl, globals.allowHttp);
  const envKey = present(env.BOOKING_API_KEY);
  const apiKey = envKey ?? present(profile.apiKey);
  if (apiKey === undefined) throw new AuthError(`no API key for profile ${name} (and BOOKING_API_KEY is not set).`, `run: booking login${profileFlag(name)}`);
  const connection: Connection = { profile: name, baseUrl, apiKey, keySource: envKey !== undefined ? 'env' : 'config' };
  if (profile.cursorPath) connection.cursorPath = profile.cursorPath;
  if (profile.itemsPath) connection.itemsPath = profile.itemsPath;
  return connection;
}

export function missingBaseUrl(profile: string): AuthError {
  return new AuthError(`no base URL for profile ${profile}: there is no built-in one.`, `run: booking login --base-url URL${profileFlag(profile)}`);
}

/** A value that counts as set: empty strings (FOO= in the env) do not. */
export function present(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function profileFlag(profile: string): string {
  return profile === 'default' ? '' : ` --profile ${profile}`;
}
