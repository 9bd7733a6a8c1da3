// `booking webhook verify`: a body with --signature, or raw request captures with --request, each
// checked in one streaming pass. Exit 0 when every delivery is authentic, 1 when any is not, 2 for
// usage errors and unreadable input (an unreadable capture is reported and the others are still checked).
import type { RunResult } from '../deps';
import { defineCommand, option, type OptionsOf } from '../define';
import type { Context } from '../../context';
import type { WithSecrets } from './secret';
import { secretOptions } from './secret-options';

export const newCmdVerify = defineCommand({
  name: 'verify',
  description: 'check that a delivery is authentic: its body against --signature, or raw request captures',
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: [
    option('--signature <sig>', 'the X-Service-Signature value: sha256=<64 hex> or bare 64 hex'),
    option(
      '--request <capture...>',
      'raw HTTP request captures (as `webhook listen` saves them), HAR files (each signed POST entry), or folders of *.http and *.har (in name order; a repeated body is marked a duplicate)',
    ),
    option('--event <name>', 'the event the delivery must be: an authentic delivery of another event fails (exit 1, reason names both)'),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 authentic, 1 not authentic (any of several), 2 usage error or unreadable input.',
  examples: [
    'booking webhook verify body.json --signature "sha256=…" --secret-file secret.txt',
    'booking webhook verify --request booking-captures --secret-file old-secret.txt --secret-file new-secret.txt',
    'booking webhook verify --request ~/Downloads/localhost.har --secret-file secret.txt',
    'booking webhook verify --request capture.http --event booking.cancelled && ./handle-cancellation',
  ],
  run: (opts, ctx): RunResult => runVerify(opts, ctx),
});

export type VerifyOptions = WithSecrets<OptionsOf<typeof newCmdVerify>>;

/** Its implementation (verify-deliveries.ts) is loaded when it runs: its help need not load the webhook library. */
export async function runVerify(opts: VerifyOptions, ctx: Context): Promise<number> {
  const { verifyDeliveries } = await import('./verify-deliveries');
  return verifyDeliveries(opts, ctx);
}
