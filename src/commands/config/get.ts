import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { profileKey } from '../../config/keys';
import { examples } from '../../help';

export interface ConfigGetOptions {
  key: string;
}

export function newCmdConfigGet(deps: CommandDeps, runF = runConfigGet): Command {
  return new Command('get')
    .description('print one setting as saved (the API key unmasked); nothing when it is not set')
    .argument('<key>', 'baseUrl, apiKey, cursorPath, itemsPath, cursorParam or cursorFromLast (base-url, api_key… also work)')
    .addHelpText('after', examples('booking config get baseUrl', 'booking config get cursorPath --profile staging'))
    .action(async (key: string, _opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({ key }, deps.context(cmd))) ?? 0);
    });
}

/** Like `gh config get`: an unset key prints nothing and still exits 0, so scripts can test for "". */
export async function runConfigGet(opts: ConfigGetOptions, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const store = await ctx.config();
  const value = store.getProfile(ctx.globals.profile)[key];
  if (value !== undefined) ctx.io.stdout.write(`${value}\n`);
}
