// `booking webhook send`: POSTs one signed delivery, as the service would, to a receiver under test
// (or a series of them with --scenario). Exit 0 when it answers 2xx, else 1.
import type { RunResult } from '../deps';
import { defineCommand, option, type OptionsOf } from '../define';
import type { Context } from '../../context';
import { EVENTS } from '../../webhook/events';
import { collect, intOption, durationOption } from '../../options';
import { MAX_DELAY_MS, MAX_DUPLICATE } from './send-limits';
import type { WithSecrets } from './secret';
import { secretOptions } from './secret-options';

export const newCmdSend = defineCommand({
  name: 'send',
  description: 'POST a signed delivery to a URL (a built-in sample body per event, with a fresh id, unless --body or --request)',
  arguments: [['<url>', 'the receiver, e.g. http://127.0.0.1:8787/webhooks']],
  options: [
    option('--event <name>', `the event: ${EVENTS.join(', ')}`),
    option('--body <file>', 'the raw body to send ("-" for stdin)'),
    option(
      '--set <path=value>',
      'override a field of the JSON payload (repeatable): data.booking.status=cancelled; VALUE is JSON when it parses',
      collect(String),
    ),
    option(
      '--request <capture>',
      "replay a saved capture's body and event (re-signed when a secret is given, else with its own signature)",
    ),
    option('--print-curl', 'print the delivery as a curl command that sends it byte for byte, instead of sending it'),
    option(
      '--scenario <name|file>',
      'send a series for one booking: lifecycle, cancel, reschedule-twice, no-show, or a JSON file of steps',
    ),
    option(
      '--duplicate <n>',
      `with --scenario: send each delivery N times, byte-identical, as a retry (at most ${MAX_DUPLICATE})`,
      intOption(1, MAX_DUPLICATE),
    ),
    option('--shuffle', 'with --scenario: send the deliveries out of order'),
    option('--seed <seed>', 'with --shuffle: the order to repeat (the summary prints the seed of a run)'),
    option(
      '--delay <duration>',
      'with --scenario: wait this long between deliveries (250ms, 2s; at most 60s)',
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
  run: (opts, ctx): RunResult => runSend(opts, ctx),
});

/** The flags as run gets them; --delay in milliseconds. */
export type SendOptions = WithSecrets<OptionsOf<typeof newCmdSend>>;

/** Its implementation (send-delivery.ts) is loaded when it runs: its help need not load the webhook library. */
export async function runSend(opts: SendOptions, ctx: Context): Promise<number> {
  const { sendDelivery } = await import('./send-delivery');
  return sendDelivery(opts, ctx);
}
