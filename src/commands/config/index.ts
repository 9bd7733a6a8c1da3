// config path | list | get | set | unset: the settings of the --profile profile.
import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { newCmdConfigList } from './list';
import { newCmdConfigGet } from './get';
import { newCmdConfigSet, newCmdConfigUnset } from './set';
import { examples } from '../../help';

export function registerConfigCommands(program: Command, deps: CommandDeps): void {
  program
    .command('config')
    .description("show and change the profile's settings (baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast)")
    .addCommand(newCmdConfigPath(deps))
    .addCommand(newCmdConfigList(deps))
    .addCommand(newCmdConfigGet(deps))
    .addCommand(newCmdConfigSet(deps))
    .addCommand(newCmdConfigUnset(deps));
}

export function newCmdConfigPath(deps: CommandDeps, runF = runConfigPath): Command {
  return new Command('path')
    .description('print the path of the config file (it may not exist yet)')
    .addHelpText('after', examples('booking config path', 'booking config path --profile staging'))
    .action(async (_opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({}, deps.context(cmd))) ?? 0);
    });
}

export async function runConfigPath(_opts: object, ctx: Context): RunResult {
  // Works on a malformed file too: that is when the user most needs to find it.
  const store = await ctx.config();
  ctx.io.stdout.write(`${store.path}\n`);
}
