import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { hint } from '../../context';
import { warnEnvKey } from './login';
import { examples } from '../../help';

export function newCmdLogout(deps: CommandDeps, runF = runLogout): Command {
  return new Command('logout')
    .description("remove the profile's saved API key (its base URL stays)")
    .addHelpText('after', examples('booking logout', 'booking logout --profile staging'))
    .action(async (_opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({}, deps.context(cmd))) ?? 0);
    });
}

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
