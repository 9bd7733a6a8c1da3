// The config file: { "profiles": { "<name>": Profile } }, written through conf (0600, folder 0700).

export interface Profile {
  baseUrl?: string;
  apiKey?: string;
  /** Dot path to the next cursor in a list body, overriding discovery. */
  cursorPath?: string;
  /** Dot path to the items array in a list body, overriding discovery. */
  itemsPath?: string;
  /** The query parameter a next cursor goes back in, overriding the conventions (as --cursor-param). */
  cursorParam?: string;
  /** The next cursor is this field of a page's last item (as --cursor-from-last). */
  cursorFromLast?: string;
  /** Pins where login saves the key and where it is looked for: keyring or file (absent: keyring when one answers). */
  keyStore?: string;
  /** The zone tables, tsv and csv show times in (as --tz and BOOKING_TZ, which win over it). */
  tz?: string;
}

export const PROFILE_KEYS = ['baseUrl', 'apiKey', 'cursorPath', 'itemsPath', 'cursorParam', 'cursorFromLast', 'keyStore', 'tz'] as const;
export type ProfileKey = (typeof PROFILE_KEYS)[number];

export interface ConfigStore {
  /** Absolute path of config.json (it may not exist yet). */
  readonly path: string;
  profileNames(): string[];
  /** The profile's settings; {} when it does not exist. */
  getProfile(name: string): Profile;
  /** Merges values into the profile, removes the `unset` keys, and writes the file (through conf) once. */
  setValues(name: string, values: Partial<Profile>, unset?: ProfileKey[]): Promise<void>;
  /** Removes keys from the profile and writes the file. */
  unsetKeys(name: string, keys: ProfileKey[]): Promise<void>;
}

/** What an API command connects with, after env and flags have been applied. */
export interface Connection {
  profile: string;
  baseUrl: URL;
  apiKey: string;
  /** Where the key came from: BOOKING_API_KEY, the OS keyring, or config.json. */
  keySource: 'env' | 'keyring' | 'file';
  cursorPath?: string;
  itemsPath?: string;
  cursorParam?: string;
  cursorFromLast?: string;
  /** The profile's tz setting, checked. */
  tz?: string;
}
