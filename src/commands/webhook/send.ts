// `booking webhook send`: its options and examples; the run code (send-run.ts) is imported when it runs.
import { Option } from 'commander';
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import type { SendOptions } from './send-run';
import { EVENTS } from '../../webhook/events';
import { collect } from '../../options';
import { defineCommand } from '../define';
import { secretOptions } from './secret-options';

export type { SendOptions };

export async function runSend(opts: SendOptions, ctx: Context): RunResult {
  const { sendDelivery } = await import('./send-run');
  return sendDelivery(opts, ctx);
}

export const newCmdSend = defineCommand<SendOptions>({
  name: 'send',
  description: 'POST a signed delivery to a URL (a built-in sample body per event, with a fresh id, unless --body or --request)',
  arguments: [['<url>', 'the receiver, e.g. http://127.0.0.1:8787/webhooks']],
  options: [
    new Option('--event <name>', `the event: ${EVENTS.join(', ')}`),
    new Option('--body <file>', 'the raw body to send ("-" for stdin)'),
    new Option(
      '--set <path=value>',
      'override a field of the JSON payload (repeatable): data.booking.status=cancelled; VALUE is JSON when it parses',
    ).argParser(collect(String)),
    new Option(
      '--request <capture>',
      "replay a saved capture's body and event (re-signed when a secret is given, else with its own signature)",
    ),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 when the receiver answers 2xx, else 1.',
  examples: [
    'booking webhook send http://127.0.0.1:8787/webhooks --event booking.created --secret-file new-secret.txt --secret-file old-secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook send http://127.0.0.1:8787/webhooks --event booking.cancelled --body cancelled.json',
    'booking webhook send http://127.0.0.1:8787/webhooks --event booking.created --set data.booking.status=pending --set \'data.booking.attendee={"name":"Ann"}\' --secret-file secret.txt',
    'booking webhook send http://127.0.0.1:3000/webhooks --request booking-captures/20261125T093607.608Z-0001-booking.created.http --secret-file secret.txt',
  ],
  run: runSend,
});
