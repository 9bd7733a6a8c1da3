// `booking webhook sign`: the X-Service-Signature value for a body, hashed as a stream.
import type { RunResult } from '../deps';
import { defineCommand, type OptionsOf } from '../define';
import type { Context } from '../../context';
import type { WithSecrets } from './secret';
import { secretOptions } from './secret-options';

export const newCmdSign = defineCommand({
  name: 'sign',
  description: 'print the X-Service-Signature value (sha256=<hex>) for a raw body',
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: secretOptions(),
  examples: [
    'booking webhook sign body.json --secret-file secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook sign - < body.json',
  ],
  run: (opts, ctx): RunResult => runSign(opts, ctx),
});

export type SignOptions = WithSecrets<OptionsOf<typeof newCmdSign>>;

/** Its implementation (sign-body.ts) is loaded when it runs: its help need not load the webhook library. */
export async function runSign(opts: SignOptions, ctx: Context): Promise<number> {
  const { signBody } = await import('./sign-body');
  return signBody(opts, ctx);
}
