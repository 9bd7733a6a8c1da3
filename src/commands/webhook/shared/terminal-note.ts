// A body read from a terminal waits for the user, who may not know it does: say so, once the secret
// prompt (if any) is done and just before the read starts. A hint, so -q silences it.
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { visible } from '../../../webhook/text';

export function noteTerminalBody(ctx: Pick<Context, 'io' | 'globals'>, source: { terminal: boolean; name: string }): void {
  if (source.terminal) hint(ctx, `Reading the body from ${visible(source.name)} until Ctrl-D (end of input); Ctrl-C cancels.`);
}
