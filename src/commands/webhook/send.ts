import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import type { SendOptions } from './send-run';
import { EVENTS } from '../../webhook/events';
import { collect } from '../../options';
import { addSecretOptions } from './secret-options';
import { examples } from '../../help';

export type { SendOptions };

export function newCmdSend(deps: CommandDeps, runF = runSend): Command {
  const cmd = new Command('send')
    .description('POST a signed delivery to a URL (a built-in sample body per event, with a fresh id, unless --body or --request)')
    .argument('<url>', 'the receiver, e.g. http://127.0.0.1:8787/webhooks')
    .option('--event <name>', `the event: ${EVENTS.join(', ')}`)
    .option('--body <file>', 'the raw body to send ("-" for stdin)')
    .option('--set <path=value>', 'override a field of the JSON payload (repeatable): data.booking.status=cancelled; VALUE is JSON when it parses', collect(String))
    .option('--request <capture>', 'replay a saved capture\'s body and event (re-signed when a secret is given, else with its own signature)');
  addSecretOptions(cmd)
    .addHelpText('after', '\nExit status: 0 when the receiver answers 2xx, else 1.')
    .addHelpText('after', examples('booking webhook send http://127.0.0.1:8787/webhooks --event booking.created --secret-file secret.txt', 'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook send http://127.0.0.1:8787/webhooks --event booking.cancelled --body cancelled.json'))
    .action(async (url: string, opts: Omit<SendOptions, 'url'>, command: Command) => {
      deps.setExitCode((await runF({ ...opts, url }, deps.context(command))) ?? 0);
    });
  return cmd;
}

export async function runSend(opts: SendOptions, ctx: Context): RunResult {
  const { sendDelivery } = await import('./send-run');
  return sendDelivery(opts, ctx);
}
