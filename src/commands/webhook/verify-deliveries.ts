// `webhook verify`'s run: a body with --signature, or raw request captures with --request, each
// checked in one streaming pass.
import type { Context } from '../../context';
import { ExitCode, UsageError } from '../../errors';
import { parseSignature } from '../../webhook/signature';
import { bodySource } from '../../webhook/reader';
import { noteTerminalBody } from './terminal-note';
import { resolveSecrets } from './secret';
import { judge, SecretsDigest } from '../../webhook/verdict';
import { verdictWriter } from './verify-output';
import { visible } from '../../webhook/text';
import { BodyHead } from '../../webhook/body-head';
import { verifyCaptures } from './verify-captures';
import type { VerifyOptions } from './verify';

export async function verifyDeliveries(opts: VerifyOptions, ctx: Context): Promise<number> {
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
  return opts.request ? verifyCaptures(opts.request, opts, ctx) : verifyBody(opts.signature!, opts, ctx);
}

async function verifyBody(signature: string, opts: VerifyOptions, ctx: Context): Promise<number> {
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
  await out.write(verdict);
  await out.end();
  return verdict.authentic ? ExitCode.OK : ExitCode.FAILURE;
}
