// `booking webhook sign`: the X-Service-Signature value for a body, hashed as a stream.
import type { RunResult } from '../deps';
import { defineCommand, type OptionsOf } from '../define';
import type { Context } from '../../context';
import type { WithSecrets } from './shared/secret';
import { secretOptions } from './shared/secret-options';

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

export async function runSign(opts: SignOptions, ctx: Context): Promise<number> {
  // Loaded when it runs, not when it is declared: `webhook sign --help` need not load the webhook library.
  const [{ createSigner }, { bodySource }, { resolveSecret }, { noteTerminalBody }, { createRecordWriter }] = await Promise.all([
    import('../../webhook/signature'),
    import('../../webhook/reader'),
    import('./shared/secret'),
    import('./shared/terminal-note'),
    import('../../output/records'),
  ]);
  const source = bodySource(ctx.io, opts.file, ctx.signal);
  const secret = await resolveSecret(opts, ctx, opts.file === undefined || opts.file === '-');
  const hmac = createSigner(secret);
  noteTerminalBody(ctx, source);
  let bytes = 0;
  await source.read((chunk) => {
    bytes += chunk.length;
    hmac.update(chunk);
  });
  const signature = `sha256=${hmac.digest('hex')}`;
  const out = await createRecordWriter(ctx, 'one', {
    keys: ['signature', 'bytes'],
    data: (r: { signature: string; bytes: number }) => r,
    line: (r) => r.signature,
    tsv: (r) => [r.signature],
  });
  await out.write({ signature, bytes });
  await out.end();
  return 0;
}
