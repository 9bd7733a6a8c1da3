// config path | list | get | set | unset: the settings of the --profile profile.
import type { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { newCmdConfigList } from './list';
import { newCmdConfigGet } from './get';
import { newCmdConfigSet, newCmdConfigUnset } from './set';

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

const newCmdConfigPath = defineCommand({
  name: 'path',
  printsText: 'a path',
  description: 'print the path of the config file (it may not exist yet)',
  examples: ['booking config path', 'booking config path --profile staging'],
  run: runConfigPath,
});

export async function runConfigPath(_opts: object, ctx: Context): RunResult {
  // Works on a malformed file too: that is when the user most needs to find it.
  const store = await ctx.config();
  ctx.io.stdout.write(`${store.path}\n`);
}
