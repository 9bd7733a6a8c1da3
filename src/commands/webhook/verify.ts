// `booking webhook verify`: its options and examples. The run code (verify-run.ts) is imported only
// when the command runs, so that defining it costs the other commands nothing at start-up.
import { Option } from 'commander';
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import type { VerifyOptions } from './verify-run';
import { defineCommand } from '../define';
import { secretOptions } from './secret-options';

export type { VerifyOptions };

export async function runVerify(opts: VerifyOptions, ctx: Context): RunResult {
  const { verifyDeliveries } = await import('./verify-run');
  return verifyDeliveries(opts, ctx);
}

export const newCmdVerify = defineCommand<VerifyOptions>({
  name: 'verify',
  description: 'check that a delivery is authentic: its body against --signature, or raw request captures',
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: [
    new Option('--signature <sig>', 'the X-Service-Signature value: sha256=<64 hex> or bare 64 hex'),
    new Option(
      '--request <capture...>',
      'raw HTTP request captures (as `webhook listen` saves them), HAR files (each signed POST entry), or folders of *.http and *.har (in name order; a repeated body is marked a duplicate)',
    ),
    new Option(
      '--event <name>',
      'the event the delivery must be: an authentic delivery of another event fails (exit 1, reason names both)',
    ),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 authentic, 1 not authentic (any of several), 2 usage error or unreadable input.',
  examples: [
    'booking webhook verify body.json --signature "sha256=…" --secret-file secret.txt',
    'booking webhook verify --request booking-captures --secret-file old-secret.txt --secret-file new-secret.txt',
    'booking webhook verify --request ~/Downloads/localhost.har --secret-file secret.txt',
    'booking webhook verify --request capture.http --event booking.cancelled && ./handle-cancellation',
  ],
  run: runVerify,
});
