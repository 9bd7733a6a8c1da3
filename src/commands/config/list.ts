import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { PROFILE_KEYS } from '../../config/types';
import { present } from '../../config/resolve';
import { profileFlag } from '../../config/keys';
import { maskKey } from '../auth/whoami';

export const newCmdConfigList = defineCommand({
  name: 'list',
  description: "the profile's settings, the key masked (key<TAB>value when piped; -o json for an object)",
  examples: ['booking config list', 'booking config list -o json --profile staging'],
  run: runConfigList,
});

export async function runConfigList(_opts: object, ctx: Context): RunResult {
  const store = await ctx.config();
  const name = ctx.globals.profile;
  const profile = store.getProfile(name);
  const shown: Record<string, string> = {};
  for (const key of PROFILE_KEYS) {
    const value = profile[key];
    if (value !== undefined) shown[key] = key === 'apiKey' ? maskKey(value) : value;
  }
  const { writeRecord } = await import('../../output/index');
  const { checkKeys } = await import('../../output/records');
  // Checked against the settings there can be, so a typo is exit 2 however few are set.
  checkKeys(ctx, PROFILE_KEYS);
  const empty = Object.keys(shown).length === 0;
  // An empty object is still an answer in JSON; in a table or tsv it is no lines, said on stderr.
  if (!empty || ctx.globals.output === 'json' || ctx.globals.output === 'ndjson') await writeRecord(ctx, shown);
  if (empty) hint(ctx, `Profile ${name} has no settings (${store.path}); run: booking login --base-url URL${profileFlag(name)}`);
  if (present(ctx.env.BOOKING_BASE_URL) !== undefined) hint(ctx, 'note: BOOKING_BASE_URL is set and overrides baseUrl.');
  if (present(ctx.env.BOOKING_API_KEY) !== undefined) hint(ctx, 'note: BOOKING_API_KEY is set and overrides apiKey.');
}
