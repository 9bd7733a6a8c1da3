import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import type { SignOptions } from './sign-run';
import { addSecretOptions } from './secret-options';
import { examples } from '../../help';

export type { SignOptions };

export function newCmdSign(deps: CommandDeps, runF = runSign): Command {
  const cmd = new Command('sign')
    .description('print the X-Service-Signature value (sha256=<hex>) for a raw body')
    .argument('[file]', 'the raw body (stdin when "-" or absent)');
  cmd.addHelpText('after', examples('booking webhook sign body.json --secret-file secret.txt', 'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook sign - < body.json'));
  addSecretOptions(cmd).action(async (file: string | undefined, opts: Omit<SignOptions, 'file'>, command: Command) => {
    deps.setExitCode((await runF({ ...opts, file }, deps.context(command))) ?? 0);
  });
  return cmd;
}

export async function runSign(opts: SignOptions, ctx: Context): RunResult {
  const { signBody } = await import('./sign-run');
  return signBody(opts, ctx);
}
