import type { RunResult } from '../deps';
import { defineCommand, type OptionsOf } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { profileKey, settingValue } from '../../config/keys';
import { assertTransportAllowed } from '../../config/transport';
import { checkExactPath } from '../../http/exact-path';
import { keyringHolds, moveKey } from '../../config/key-location';
import { UsageError } from '../../base/errors';
import { keyringNote } from '../../output/waiting';

/** The <key> argument of config get, set and unset. */
export const KEY_HELP =
  'baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast, keyStore or tz (base-url, api_key… also work)';

export const newCmdConfigSet = defineCommand({
  name: 'set',
  printsText: 'only messages on stderr',
  description: 'save one setting to the profile',
  arguments: [
    ['<key>', KEY_HELP],
    ['<value>', 'the value; baseUrl must be an http(s) URL'],
  ],
  examples: ['booking config set baseUrl https://api.example.com', 'booking config set cursorPath meta.next_cursor --profile staging'],
  run: (opts, ctx): RunResult => runConfigSet(opts, ctx),
});

export const newCmdConfigUnset = defineCommand({
  name: 'unset',
  printsText: 'only messages on stderr',
  description: 'remove one setting from the profile',
  arguments: [['<key>', KEY_HELP]],
  examples: ['booking config unset cursorPath', 'booking config unset apiKey --profile staging'],
  run: (opts, ctx): RunResult => runConfigUnset(opts, ctx),
});

export async function runConfigSet(opts: OptionsOf<typeof newCmdConfigSet>, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const value = settingValue(key, opts.value);
  // A path every list would then fail to read is refused now, where the cause is plain.
  if (key === 'cursorPath' || key === 'itemsPath' || key === 'cursorFromLast') checkExactPath(value);
  // As login does: a plain http:// base URL every command would then refuse is refused now.
  if (key === 'baseUrl') assertTransportAllowed(new URL(value), ctx.globals.allowHttp);
  const store = await ctx.config();
  const name = ctx.globals.profile;
  const profile = store.getProfile(name);
  const moved =
    key === 'baseUrl' && profile.baseUrl
      ? await moveKey({ env: ctx.env, signal: ctx.signal, name, profile, baseUrl: profile.baseUrl, note: keyringNote(ctx) }, value)
      : undefined;
  await store.setValues(name, { [key]: value });
  if (moved) hint(ctx, `Base URL of profile ${name} set to ${value}; ${moved}`);
  if (key === 'apiKey')
    hint(ctx, 'note: a key given as an argument stays in your shell history; `booking login --with-key` reads it from stdin.');
}

export async function runConfigUnset(opts: OptionsOf<typeof newCmdConfigUnset>, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const store = await ctx.config();
  const name = ctx.globals.profile;
  const profile = store.getProfile(name);
  // The keyring keeps the key under the base URL: without one, no logout could find it again.
  if (
    key === 'baseUrl' &&
    profile.baseUrl &&
    (await keyringHolds({ env: ctx.env, signal: ctx.signal, name, profile, baseUrl: profile.baseUrl, note: keyringNote(ctx) }))
  )
    throw new UsageError(
      `the API key of profile ${name} is saved in the OS keyring for ${profile.baseUrl}: run booking logout first, or change the base URL with booking config set baseUrl URL (the key moves with it).`,
    );
  await store.unsetKeys(name, [key]);
}
