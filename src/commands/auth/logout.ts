import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { baseUrlText, parseBaseUrl } from '../../config/keys';
import { removeKey } from '../../config/key-location';
import { present } from '../../config/resolve';
import { warnEnvKey } from './login/login';
import { keyringNote } from '../../output/waiting';

/** `booking logout`, and gh's spelling of it, `booking auth logout`. */
const logoutCommand = (invocation: string) =>
  defineCommand({
    name: 'logout',
    printsText: 'only messages on stderr',
    description: "remove the profile's saved API key, from the OS keyring and the config file (its base URL stays)",
    examples: [invocation, `${invocation} --profile staging`],
    run: runLogout,
  });

export const newCmdLogout = logoutCommand('booking logout');
export const newCmdAuthLogout = logoutCommand('booking auth logout');

export async function runLogout(_opts: object, ctx: Context): RunResult {
  const store = await ctx.config();
  const name = ctx.globals.profile;
  const profile = store.getProfile(name);
  const baseText = present(ctx.globals.baseUrl) ?? present(profile.baseUrl);
  // The keyring entry is per base URL: without one, only the file can hold a key for this profile.
  const baseUrl = baseText === undefined ? undefined : baseUrlText(parseBaseUrl(baseText));
  const removed =
    baseUrl === undefined
      ? await fileOnly(store, name, profile.apiKey)
      : await removeKey(store, { env: ctx.env, signal: ctx.signal, name, profile, baseUrl, note: keyringNote(ctx) });
  if (removed.length === 0) {
    hint(ctx, `No API key saved for profile ${name}; nothing to remove.`);
  } else {
    const from = removed.map((s) => (s === 'keyring' ? 'the OS keyring' : store.path)).join(' and ');
    hint(ctx, `Removed the API key of profile ${name} from ${from}${profile.baseUrl ? ` (base URL ${profile.baseUrl} kept)` : ''}.`);
  }
  warnEnvKey(ctx, 'still set in the environment: commands keep using it until you unset it.');
}

async function fileOnly(store: Awaited<ReturnType<Context['config']>>, name: string, apiKey: string | undefined): Promise<'file'[]> {
  if (apiKey === undefined) return [];
  await store.unsetKeys(name, ['apiKey']);
  return ['file'];
}
