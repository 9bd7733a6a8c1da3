// `booking webhook verify`: a body with --signature, or raw request captures with --request, each
// checked in one streaming pass. Exit 0 when every delivery is authentic, 1 when any is not, 2 for
// usage errors and unreadable input (an unreadable capture is reported and the others are still checked).
import type { RunResult } from '../../deps';
import { defineCommand, option, type OptionsOf } from '../../define';
import type { Context } from '../../../context';
import { ExitCode, UsageError } from '../../../base/errors';
import type { WithSecrets } from '../shared/secret';
import { secretOptions } from '../shared/secret-options';
import { ageOptions, schemeOption } from '../shared/scheme-options';

export const newCmdVerify = defineCommand({
  name: 'verify',
  description: 'check that a delivery is authentic: its body against --signature, or raw request captures',
  arguments: [['[file]', 'the raw body (stdin when "-" or absent)']],
  options: [
    option(
      '--signature <sig>',
      "the signature header's value: sha256=<64 hex> or bare 64 hex (with --scheme: that scheme's header, t=…,v1=… or v1,<base64>)",
    ),
    option(
      '--request <capture...>',
      'raw HTTP request captures (as `webhook listen` saves them), HAR files (each signed POST entry), or folders of *.http and *.har (in name order; a repeated body is marked a duplicate)',
    ),
    option('--event <name>', 'the event the delivery must be: an authentic delivery of another event fails (exit 1, reason names both)'),
    schemeOption("the signing scheme (default: recognised from each capture's headers, else service)"),
    ...ageOptions(),
    option('--id <id>', "with --signature and --scheme standard: the webhook-id header's value"),
    option('--timestamp <unix>', "with --signature and --scheme standard: the webhook-timestamp header's value"),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 authentic, 1 not authentic (any of several), 2 usage error or unreadable input.',
  examples: [
    'booking webhook verify body.json --signature "sha256=…" --secret-file secret.txt',
    'booking webhook verify --request booking-captures --secret-file old-secret.txt --secret-file new-secret.txt',
    'booking webhook verify --request capture.http --event booking.cancelled && ./handle-cancellation',
    'booking webhook verify --request ~/Downloads/stripe.har --scheme stripe --secret-file stripe-secret.txt --at 2026-11-25T09:12:03Z',
  ],
  run: (opts, ctx): RunResult => runVerify(opts, ctx),
});

export type VerifyOptions = WithSecrets<OptionsOf<typeof newCmdVerify>>;

export async function runVerify(opts: VerifyOptions, ctx: Context): Promise<number> {
  if (opts.request && opts.signature !== undefined)
    throw new UsageError('--signature and --request are alternatives: a capture carries its own signature.');
  if (opts.request && opts.file !== undefined)
    throw new UsageError(`a capture carries its own body: FILE (${opts.file}) is not used with --request.`);
  if (!opts.request && opts.signature === undefined) {
    throw new UsageError(
      'nothing to check against: give --signature SIG (the body from FILE or stdin) or --request CAPTURE…',
      'See `booking webhook verify --help`.',
    );
  }
  if (opts.event !== undefined && opts.event.trim() === '')
    throw new UsageError('--event must not be empty: give the event you expect, such as booking.created.');
  if ((opts.id !== undefined || opts.timestamp !== undefined) && (opts.request || opts.scheme !== 'standard'))
    throw new UsageError('--id and --timestamp are for --signature with --scheme standard: a capture carries its own headers.');
  if (!opts.request && opts.scheme !== undefined && opts.scheme !== 'service') {
    const { verifySchemeBody } = await import('./scheme-body');
    return verifySchemeBody(opts.signature!, opts, ctx);
  }
  if (!opts.request) return verifyBody(opts.signature!, opts, ctx);
  const { verifyCaptures } = await import('./captures');
  return verifyCaptures(opts.request, opts, ctx);
}

async function verifyBody(signature: string, opts: VerifyOptions, ctx: Context): Promise<number> {
  // Loaded when it runs, not when it is declared: `webhook verify --help` need not load the webhook library.
  const [
    { parseSignature },
    { bodySource },
    { noteTerminalBody },
    { resolveSecrets },
    { judge, SecretsDigest },
    { verdictWriter },
    { visible },
    { BodyHead },
  ] = await Promise.all([
    import('../../../webhook/signature'),
    import('../../../webhook/reader'),
    import('../shared/terminal-note'),
    import('../shared/secret'),
    import('../../../webhook/verdict'),
    import('./output'),
    import('../../../webhook/text'),
    import('../../../webhook/body-head'),
  ]);
  const expected = parseSignature(signature);
  if (!expected) {
    const shown = signature.length > 80 ? `${signature.slice(0, 80)}…` : signature;
    throw new UsageError(`--signature "${visible(shown)}" is not sha256=<64 hex> or 64 hex digits.`);
  }
  const source = bodySource(ctx.io, opts.file, ctx.signal);
  const secrets = await resolveSecrets(opts, ctx, opts.file === undefined || opts.file === '-');
  const digest = new SecretsDigest(secrets);
  const head = new BodyHead();
  noteTerminalBody(ctx, source);
  await source.read((chunk) => {
    digest.update(chunk);
    head.add(chunk);
  });
  const verdict = await judge({
    secrets,
    expected,
    digests: digest.finish(),
    again: source.again(),
    event: head.event(),
    expectedEvent: opts.event,
  });
  const out = await verdictWriter(ctx, false);
  await out.write(opts.scheme === 'service' ? { ...verdict, scheme: 'service' } : verdict);
  await out.end();
  return verdict.authentic ? ExitCode.OK : ExitCode.FAILURE;
}
