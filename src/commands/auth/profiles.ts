// `booking profiles` (also `booking auth status`): every profile in the config with its base URL, the
// key masked, and which one this run would use (--profile, BOOKING_PROFILE, else "default").
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { hint } from '../../context';
import { present } from '../../config/resolve';
import { maskKey } from './whoami';

/** `booking profiles`, and gh's spelling of the same question, `booking auth status`. */
const profilesCommand = (name: string, invocation: string) =>
  defineCommand<object>({
    name,
    description: 'list the profiles: name, base URL, masked key, and which one is active',
    examples: [invocation, 'booking profiles -o json', 'BOOKING_PROFILE=staging booking profiles'],
    run: runProfiles,
  });

export const newCmdProfiles = profilesCommand('profiles', 'booking profiles');
export const newCmdAuthStatus = profilesCommand('status', 'booking auth status');

interface ProfileRow {
  name: string;
  active: boolean;
  baseUrl: string | null;
  apiKey: string | null;
}

async function runProfiles(_opts: object, ctx: Context): RunResult {
  const store = await ctx.config();
  const active = ctx.globals.profile;
  const rows: ProfileRow[] = store.profileNames().map((name) => {
    const profile = store.getProfile(name);
    return {
      name,
      active: name === active,
      baseUrl: profile.baseUrl ?? null,
      apiKey: profile.apiKey === undefined ? null : maskKey(profile.apiKey),
    };
  });
  const { createListWriter } = await import('../../output/index');
  const writer = await createListWriter(ctx);
  await writer.write(rows);
  await writer.end();
  if (!rows.some((r) => r.active)) {
    hint(
      ctx,
      `The active profile, ${active}, has no settings (${store.path}); run: booking login --base-url URL${active === 'default' ? '' : ` --profile ${active}`}`,
    );
  }
  if (present(ctx.env.BOOKING_BASE_URL) !== undefined)
    hint(ctx, 'note: BOOKING_BASE_URL is set and overrides the base URL of the active profile.');
  if (present(ctx.env.BOOKING_API_KEY) !== undefined)
    hint(ctx, 'note: BOOKING_API_KEY is set and overrides the key of the active profile.');
}
