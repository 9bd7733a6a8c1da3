// `booking webhook sign`: its options and examples; the run code (sign-run.ts) is imported when it runs.
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import type { SignOptions } from './sign-run';
import { defineCommand } from '../define';
import { secretOptions } from './secret-options';

export async function runSign(opts: SignOptions, ctx: Context): RunResult {
  const { signBody } = await import('./sign-run');
  return signBody(opts, ctx);
}

export const newCmdSign = defineCommand<SignOptions>({
  name: 'sign',
  description: 'print the X-Service-Signature value (sha256=<hex>) for a raw body',
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: secretOptions(),
  examples: [
    'booking webhook sign body.json --secret-file secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook sign - < body.json',
  ],
  run: runSign,
});
