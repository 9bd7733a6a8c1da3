// `booking webhook sign`: the X-Service-Signature value for a body, hashed as a stream; with --scheme,
// the header lines of that scheme (with --id and --timestamp where it signs them, else fresh ones).
import type { RunResult } from '../../deps';
import { defineCommand, option, type OptionsOf } from '../../define';
import type { Context } from '../../../context';
import { UsageError } from '../../../base/errors';
import { SIGNED_BESIDES_BODY } from '../../../webhook/schemes/names';
import { intOption } from '../../../base/options';
import type { WithSecrets } from '../shared/secret';
import { secretOptions } from '../shared/secret-options';
import { schemeOption } from '../shared/scheme-options';

export const newCmdSign = defineCommand({
  name: 'sign',
  description: "print the X-Service-Signature value (sha256=<hex>) for a raw body, or with --scheme that scheme's header lines",
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: [
    schemeOption('the scheme to sign in (its header lines are printed)'),
    option('--id <id>', 'standard: the webhook-id to sign (default: a fresh msg_…)'),
    option('--timestamp <unix>', 'calendly, stripe, standard: the Unix time to sign (default: now)', intOption(0, 99_999_999_999)),
    ...secretOptions(),
  ],
  examples: [
    'booking webhook sign body.json --secret-file secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook sign - < body.json',
    'booking webhook sign body.json --scheme stripe --timestamp 1795597923 --secret-file stripe-secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_c2FuZGJveA== booking webhook sign body.json --scheme standard --id msg_1',
  ],
  run: (opts, ctx): RunResult => runSign(opts, ctx),
});

export type SignOptions = WithSecrets<OptionsOf<typeof newCmdSign>>;

export async function runSign(opts: SignOptions, ctx: Context): Promise<number> {
  // A value the scheme does not sign would be silently dropped: refused instead.
  const signs = SIGNED_BESIDES_BODY[opts.scheme ?? 'service'];
  if (opts.id !== undefined && !signs.includes('id'))
    throw new UsageError(`--id is signed only by --scheme standard; ${opts.scheme ?? 'service'} signs no id.`);
  if (opts.timestamp !== undefined && !signs.includes('timestamp'))
    throw new UsageError(`--timestamp is signed only by --scheme calendly, stripe or standard; ${opts.scheme ?? 'service'} signs no time.`);
  if (opts.scheme !== undefined && opts.scheme !== 'service') {
    const { signInScheme } = await import('./scheme');
    return signInScheme(opts, ctx);
  }
  // Loaded when it runs, not when it is declared: `webhook sign --help` need not load the webhook library.
  const [{ createSigner }, { bodySource }, { resolveSecret }, { noteTerminalBody }, { createRecordWriter }] = await Promise.all([
    import('../../../webhook/signature'),
    import('../../../webhook/reader'),
    import('../shared/secret'),
    import('../shared/terminal-note'),
    import('../../../output/records'),
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
