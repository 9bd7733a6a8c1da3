// `booking config path`: where the config file is (or would be).
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';

export const newCmdConfigPath = defineCommand({
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
