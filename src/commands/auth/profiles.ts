// `booking profiles` (also `booking auth status`): every profile in the config with its base URL, the
// key masked, where the key is (keyring, file, or env for the active profile when BOOKING_API_KEY is
// set), and which one this run would use (--profile, BOOKING_PROFILE, else "default").
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { present } from '../../config/resolve';
import { profileFlag } from '../../config/keys';
import { UsageError } from '../../base/errors';
import { maskKey } from './whoami';
import { keyringKeys, keyStoreMode, type KeySource } from '../../config/key-location';
import { keyringNote } from '../../output/waiting';

/** `booking profiles`, and gh's spelling of the same question, `booking auth status`. */
const profilesCommand = (name: string, invocation: string) =>
  defineCommand({
    name,
    description: 'list the profiles: name, base URL, masked key, where the key is (keyring, file or env), and which one is active',
    examples: [invocation, `${invocation} -o json`, `BOOKING_PROFILE=staging ${invocation}`],
    run: runProfiles,
  });

export const newCmdProfiles = profilesCommand('profiles', 'booking profiles');
export const newCmdAuthStatus = profilesCommand('status', 'booking auth status');

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string | null;
  apiKey: string | null;
  keyStore: KeySource | null;
}

/** Every key of a row, for the --fields check: `satisfies` makes a key added to the row missing here a type error. */
const ROW_KEYS = Object.keys({ name: 0, active: 0, baseUrl: 0, apiKey: 0, keyStore: 0 } satisfies Record<keyof ProfileRow, 0>);

async function runProfiles(_opts: object, ctx: Context): RunResult {
  const store = await ctx.config();
  const active = ctx.globals.profile;
  const names = store.profileNames();
  const envKey = present(ctx.env.BOOKING_API_KEY);
  // One keyring call for every profile whose key is not in the file (the lookup order of key-location.ts).
  const ask: [string, string][] = [];
  for (const name of names) {
    const profile = store.getProfile(name);
    if ((name === active && envKey !== undefined) || profile.baseUrl === undefined) continue;
    // A profile with a keyStore setting that cannot be read is listed with what its file holds: one
    // profile's typo does not hide the others (the commands that use it say what is wrong).
    let mode: string;
    try {
      mode = keyStoreMode(ctx.env, name, profile).mode;
    } catch (err) {
      if (!(err instanceof UsageError) || present(ctx.env.BOOKING_KEY_STORE) !== undefined) throw err;
      continue;
    }
    if (mode === 'keyring' || (mode === 'auto' && profile.apiKey === undefined)) ask.push([name, profile.baseUrl]);
  }
  const keyring = await keyringKeys(ctx.env, ctx.signal, ask, keyringNote(ctx));
  const rows: ProfileRow[] = names.map((name) => {
    const profile = store.getProfile(name);
    const fromKeyring = keyring.keys.get(name);
    const [key, where]: [string | undefined, KeySource | null] =
      name === active && envKey !== undefined
        ? [envKey, 'env']
        : fromKeyring !== undefined
          ? [fromKeyring, 'keyring']
          : profile.apiKey !== undefined
            ? [profile.apiKey, 'file']
            : [undefined, null];
    return {
      name,
      active: name === active,
      baseUrl: profile.baseUrl ?? null,
      apiKey: key === undefined ? null : maskKey(key),
      keyStore: where,
    };
  });
  const { createListWriter } = await import('../../output/index');
  const { checkKeys } = await import('../../output/records');
  // Checked against the row's keys, so a typo is exit 2 with no profile saved too.
  checkKeys(ctx, ROW_KEYS);
  const writer = await createListWriter(ctx);
  await writer.write(rows);
  await writer.end();
  if (!rows.some((r) => r.active)) {
    hint(ctx, `The active profile, ${active}, has no settings (${store.path}); run: booking login --base-url URL${profileFlag(active)}`);
  }
  if (keyring.why !== undefined) hint(ctx, `note: no OS keyring answered (${keyring.why}): keys saved in one are not shown.`);
  if (present(ctx.env.BOOKING_BASE_URL) !== undefined)
    hint(ctx, 'note: BOOKING_BASE_URL is set and overrides the base URL of the active profile.');
  if (present(ctx.env.BOOKING_API_KEY) !== undefined)
    hint(ctx, 'note: BOOKING_API_KEY is set and overrides the key of the active profile.');
}
