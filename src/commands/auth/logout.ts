import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { warnEnvKey } from './login';

export const newCmdLogout = defineCommand<object>({
  name: 'logout',
  printsText: 'only messages on stderr',
  description: "remove the profile's saved API key (its base URL stays)",
  examples: ['booking logout', 'booking logout --profile staging'],
  run: runLogout,
});

export async function runLogout(_opts: object, ctx: Context): RunResult {
  const store = await ctx.config();
  const name = ctx.globals.profile;
  const { apiKey, baseUrl } = store.getProfile(name);
  if (apiKey === undefined) {
    hint(ctx, `No API key saved for profile ${name}; nothing to remove.`);
  } else {
    await store.unsetKeys(name, ['apiKey']);
    hint(ctx, `Removed the API key of profile ${name}${baseUrl ? ` (base URL ${baseUrl} kept)` : ''}.`);
  }
  warnEnvKey(ctx, 'still set in the environment: commands keep using it until you unset it.');
}
