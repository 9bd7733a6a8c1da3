import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { hint } from '../../context';
import { profileKey, settingValue } from '../../config/keys';
import { assertTransportAllowed } from '../../http/url';
import { examples } from '../../help';

export interface ConfigSetOptions {
  key: string;
  value: string;
}

export interface ConfigUnsetOptions {
  key: string;
}

const KEY_HELP = 'baseUrl, apiKey, cursorPath, itemsPath, cursorParam or cursorFromLast (base-url, api_key… also work)';

export function newCmdConfigSet(deps: CommandDeps, runF = runConfigSet): Command {
  return new Command('set')
    .description('save one setting to the profile')
    .argument('<key>', KEY_HELP)
    .argument('<value>', 'the value; baseUrl must be an http(s) URL')
    .addHelpText('after', examples('booking config set baseUrl https://api.example.com', 'booking config set cursorPath meta.next_cursor --profile staging'))
    .action(async (key: string, value: string, _opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({ key, value }, deps.context(cmd))) ?? 0);
    });
}

export function newCmdConfigUnset(deps: CommandDeps, runF = runConfigUnset): Command {
  return new Command('unset')
    .description('remove one setting from the profile')
    .argument('<key>', KEY_HELP)
    .addHelpText('after', examples('booking config unset cursorPath', 'booking config unset apiKey --profile staging'))
    .action(async (key: string, _opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({ key }, deps.context(cmd))) ?? 0);
    });
}

export async function runConfigSet(opts: ConfigSetOptions, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const value = settingValue(key, opts.value);
  // As login does: a plain http:// base URL every command would then refuse is refused now.
  if (key === 'baseUrl') assertTransportAllowed(new URL(value), ctx.globals.allowHttp);
  const store = await ctx.config();
  await store.setValues(ctx.globals.profile, { [key]: value });
  if (key === 'apiKey') hint(ctx, 'note: a key given as an argument stays in your shell history; `booking login --with-key` reads it from stdin.');
}

export async function runConfigUnset(opts: ConfigUnsetOptions, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const store = await ctx.config();
  await store.unsetKeys(ctx.globals.profile, [key]);
}
