import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import type { VerifyOptions } from './verify-run';
import { addSecretOptions } from './secret-options';

export type { VerifyOptions };

export function newCmdVerify(deps: CommandDeps, runF = runVerify): Command {
  const cmd = new Command('verify')
    .description('check that a delivery is authentic: its body against --signature, or raw request captures')
    .argument('[file]', 'the raw body (stdin when "-" or absent)')
    .option('--signature <sig>', 'the X-Service-Signature value: sha256=<64 hex> or bare 64 hex')
    .option('--request <capture...>', 'raw HTTP request captures (as `webhook listen` saves them), or folders of *.http captures (checked in name order)')
    .option('--event <name>', 'the event the delivery must be: one of another event is not accepted (exit 1, reason names both)');
  addSecretOptions(cmd)
    .addHelpText(
      'after',
      '\nExit status: 0 authentic, 1 not authentic (any of several), 2 usage error or unreadable input.\n\nExamples:\n  booking webhook verify body.json --signature "sha256=…" --secret-file secret.txt\n  booking webhook verify --request booking-captures/*.http',
    )
    .action(async (file: string | undefined, opts: Omit<VerifyOptions, 'file'>, command: Command) => {
      deps.setExitCode((await runF({ ...opts, file }, deps.context(command))) ?? 0);
    });
  return cmd;
}

export async function runVerify(opts: VerifyOptions, ctx: Context): RunResult {
  const { verifyDeliveries } = await import('./verify-run');
  return verifyDeliveries(opts, ctx);
}
