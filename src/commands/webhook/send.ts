// `booking webhook send`: its options and examples; the run code (send-run.ts) is imported when it runs.
import { Option } from 'commander';
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import type { SendOptions } from './send-run';
import { EVENTS } from '../../webhook/events';
import { collect, intOption, durationOption } from '../../options';
import { MAX_DELAY_MS, MAX_DUPLICATE } from './send-limits';
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
    new Option('--print-curl', 'print the delivery as a curl command that sends it byte for byte, instead of sending it'),
    new Option(
      '--scenario <name|file>',
      'send a series for one booking: lifecycle, cancel, reschedule-twice, no-show, or a JSON file of steps',
    ),
    new Option(
      '--duplicate <n>',
      `with --scenario: send each delivery N times, byte-identical, as a retry (at most ${MAX_DUPLICATE})`,
    ).argParser(intOption(1, MAX_DUPLICATE)),
    new Option('--shuffle', 'with --scenario: send the deliveries out of order'),
    new Option('--seed <seed>', 'with --shuffle: the order to repeat (the summary prints the seed of a run)'),
    new Option('--delay <duration>', 'with --scenario: wait this long between deliveries (250ms, 2s; at most 60s)').argParser(
      durationOption(MAX_DELAY_MS),
    ),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 when the receiver answers 2xx (every delivery, with --scenario), else 1.',
  examples: [
    'booking webhook send http://127.0.0.1:8787/webhooks --event booking.created --set data.booking.status=pending --secret-file new-secret.txt --secret-file old-secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook send http://127.0.0.1:8787/webhooks --event booking.cancelled --body cancelled.json',
    'booking webhook send http://127.0.0.1:3000/webhooks --request booking-captures/20261125T093607.608Z-0001-booking.created.http --print-curl',
    'booking webhook send http://127.0.0.1:8787/webhooks --scenario lifecycle --duplicate 2 --shuffle --seed 7 --delay 500ms --secret-file secret.txt',
  ],
  run: runSend,
});
