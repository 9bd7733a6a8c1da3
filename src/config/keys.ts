// The profile's settings as users name them on the command line, and what each accepts.
import { UsageError } from '../base/errors';
import { PROFILE_KEYS, type ProfileKey } from './types';
import { checkZone } from '../output/time-zone';

const ALIASES: Record<string, ProfileKey> = {
  baseurl: 'baseUrl',
  'base-url': 'baseUrl',
  base_url: 'baseUrl',
  apikey: 'apiKey',
  'api-key': 'apiKey',
  api_key: 'apiKey',
  key: 'apiKey',
  cursorpath: 'cursorPath',
  'cursor-path': 'cursorPath',
  cursor_path: 'cursorPath',
  itemspath: 'itemsPath',
  'items-path': 'itemsPath',
  items_path: 'itemsPath',
  cursorparam: 'cursorParam',
  'cursor-param': 'cursorParam',
  cursor_param: 'cursorParam',
  cursorfromlast: 'cursorFromLast',
  'cursor-from-last': 'cursorFromLast',
  cursor_from_last: 'cursorFromLast',
  keystore: 'keyStore',
  'key-store': 'keyStore',
  key_store: 'keyStore',
  tz: 'tz',
  timezone: 'tz',
  'time-zone': 'tz',
  time_zone: 'tz',
};

/** baseUrl, base-url, base_url, BASE_URL… → baseUrl; anything else is a usage error listing the keys. */
export function profileKey(name: string): ProfileKey {
  const alias = name.toLowerCase();
  if (Object.hasOwn(ALIASES, alias)) return ALIASES[alias]!;
  throw new UsageError(`unknown config key ${JSON.stringify(name)}: valid keys are ${PROFILE_KEYS.join(', ')}.`);
}

/** The value as it will be saved, or a usage error saying what the key accepts. */
export function settingValue(key: ProfileKey, value: string): string {
  switch (key) {
    case 'baseUrl':
      return baseUrlText(parseBaseUrl(value));
    case 'apiKey':
      return apiKeyValue(value);
    case 'cursorPath':
    case 'itemsPath':
    case 'cursorFromLast':
      if (value.trim() === '' || /\s/.test(value)) {
        const example = key === 'cursorFromLast' ? 'id' : 'meta.next_cursor';
        throw new UsageError(`${key} must be a dot path such as ${example} (no spaces); use \`booking config unset ${key}\` to remove it.`);
      }
      return value;
    case 'keyStore':
      if (value !== 'keyring' && value !== 'file')
        throw new UsageError('keyStore must be keyring or file; use `booking config unset keyStore` for the keyring when one answers.');
      return value;
    case 'tz':
      return checkZone(value, 'tz');
    case 'cursorParam':
      // Sent as a query parameter name: printable, no spaces, nothing that ends or splits a query.
      if (!/^[\x21-\x7e]+$/.test(value) || /[&=#?]/.test(value)) {
        throw new UsageError(
          `cursorParam must be a query parameter name such as pageToken (no spaces, &, =, ? or #); use \`booking config unset cursorParam\` to remove it.`,
        );
      }
      return value;
  }
}

/** An absolute http(s) URL without credentials, query or fragment; anything else is a usage error. */
export function parseBaseUrl(text: string): URL {
  const shown = JSON.stringify(text);
  const bad = (why: string) => new UsageError(`invalid base URL ${shown}: ${why}.`);
  if (!/^https?:\/\//i.test(text.trim())) throw bad('expected an absolute http:// or https:// URL such as https://api.example.com');
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw bad('it is not a valid URL');
  }
  if (url.username || url.password) {
    // Do not echo the password back.
    throw new UsageError(
      `invalid base URL: it must not carry a user name or password (user:pass@${url.host}); the API key is the credential.`,
    );
  }
  if (url.search || url.hash) throw bad('a base URL has no query (?…) or fragment (#…)');
  return url;
}

/** How a base URL is saved and shown: normalised by URL, without the bare "/" path URL adds. */
export function baseUrlText(url: URL): string {
  return url.pathname === '/' ? url.origin : url.href;
}

/** "U+2026": how a character is named without printing it (it may be part of a secret). */
function codePoint(char: string): string {
  return `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** The key as typed or piped, less surrounding whitespace; empty, multi-part or not ASCII is a usage error. */
export function apiKeyValue(raw: string): string {
  const key = raw.trim();
  if (key === '') throw new UsageError('the API key is empty.');
  if (/[\s\u0000-\u001f\u007f]/.test(key))
    throw new UsageError('the API key contains spaces, line breaks or control characters; give the key alone.');
  // Anything else could not go into an HTTP header: every request would fail, far from the cause.
  const odd = /[^\x21-\x7e]/u.exec(key);
  if (odd)
    throw new UsageError(
      `the API key has a character that is not printable ASCII (${codePoint(odd[0])} at position ${odd.index + 1}); give the key exactly as issued.`,
    );
  return key;
}

/** " --profile NAME" for a command line a message suggests; nothing for the default profile. */
export function profileFlag(profile: string): string {
  return profile === 'default' ? '' : ` --profile ${profile}`;
}
