// The ConfigStore every command gets from ctx.config(): the file read once with fs + JSON.parse, and
// writes that go through write.ts (loaded, with conf, only when something is saved).
import type { ConfigStore, Profile } from './types';
import { PROFILE_KEYS } from './types';
import { configFilePath } from './paths';
import { profileOf, readConfigFile, type ConfigData } from './file';
import { assertTrustedConfig } from './trust';

export async function openConfig(env: Record<string, string | undefined>): Promise<ConfigStore> {
  return openConfigAt(configFilePath(env));
}

/**
 * A store on the given file. A malformed file does not fail here but on first use, so that
 * `config path` still tells the user where the broken file is.
 */
export function openConfigAt(path: string): ConfigStore {
  let cached: ConfigData | undefined;
  const data = (): ConfigData => {
    if (cached) return cached;
    assertTrustedConfig(path);
    return (cached = readConfigFile(path));
  };

  const update = async (change: (d: ConfigData) => boolean): Promise<void> => {
    data(); // a file already known to be malformed fails before the write machinery loads
    const { updateConfigFile } = await import('./write');
    cached = await updateConfigFile(path, change);
  };

  return {
    path,
    profileNames: () => Object.keys(data().profiles),
    getProfile: (name) => pickSettings(profileOf(data(), name)),
    setValues: (name, values, unset = []) =>
      update((d) => {
        const defined = Object.entries(values).filter(([, v]) => v !== undefined);
        const old = profileOf(d, name);
        const removed = unset.filter((k) => old !== undefined && Object.hasOwn(old, k));
        if (defined.length === 0 && removed.length === 0) return false;
        const profile = { ...old, ...Object.fromEntries(defined) };
        for (const k of removed) delete profile[k];
        d.profiles[name] = profile;
        return true;
      }),
    unsetKeys: (name, keys) =>
      update((d) => {
        const profile = profileOf(d, name);
        if (!profile || !keys.some((k) => Object.hasOwn(profile, k))) return false;
        const rest = { ...profile };
        for (const k of keys) delete rest[k];
        // An emptied profile goes, so `config list` and completion stop offering it.
        if (Object.keys(rest).length === 0) delete d.profiles[name];
        else d.profiles[name] = rest;
        return true;
      }),
  };
}

/** The known settings only, as a fresh object (callers may not reach into the cache). */
function pickSettings(stored: Profile | undefined): Profile {
  const profile: Profile = {};
  if (!stored) return profile;
  for (const key of PROFILE_KEYS) {
    const value = stored[key];
    if (value !== undefined) profile[key] = value;
  }
  return profile;
}
