import type { RunResult } from '../deps';
import { defineCommand, type OptionsOf } from '../define';
import type { Context } from '../../context';
import { profileKey } from '../../config/keys';
import { KEY_HELP } from './set';

export const newCmdConfigGet = defineCommand({
  name: 'get',
  printsText: 'one value as saved',
  description: 'print one setting as saved (the API key unmasked); nothing when it is not set',
  arguments: [['<key>', KEY_HELP]],
  examples: ['booking config get baseUrl', 'booking config get cursorPath --profile staging'],
  run: (opts, ctx): RunResult => runConfigGet(opts, ctx),
});

/** Like `gh config get`: an unset key prints nothing and still exits 0, so scripts can test for "". */
export async function runConfigGet(opts: OptionsOf<typeof newCmdConfigGet>, ctx: Context): RunResult {
  const key = profileKey(opts.key);
  const store = await ctx.config();
  const value = store.getProfile(ctx.globals.profile)[key];
  if (value !== undefined) ctx.io.stdout.write(`${value}\n`);
}
