// `webhook verify FILE --signature SIG --scheme X` for a scheme other than the seed's: the body from
// FILE or stdin, and the headers the scheme reads made from --signature (and, for Standard Webhooks,
// --id and --timestamp), judged as a capture with those headers would be.
import type { Context } from '../../../context';
import { ExitCode, UsageError } from '../../../base/errors';
import { bodySource } from '../../../webhook/reader';
import { visible } from '../../../webhook/text';
import { schemeNamed } from '../../../webhook/schemes/index';
import { judgeScheme, schemeKeys } from '../../../webhook/schemes/verify-scheme';
import { ageRule, type AgeOptions } from '../shared/scheme-options';
import type { SchemeName } from '../../../webhook/schemes/names';
import { resolveSecrets, type SecretOptions } from '../shared/secret';
import { noteTerminalBody } from '../shared/terminal-note';
import { verdictWriter } from './output';

/** What a body's check in a scheme takes of `webhook verify`'s options. */
type SchemeBodyCheck = SecretOptions & AgeOptions & { file?: string; scheme?: SchemeName; event?: string; id?: string; timestamp?: string };

export async function verifySchemeBody(signature: string, opts: SchemeBodyCheck, ctx: Context): Promise<number> {
  const scheme = schemeNamed(opts.scheme!);
  const headers = [scheme.signatureHeader, signature];
  if (scheme.name === 'standard') {
    if (opts.id === undefined || opts.timestamp === undefined)
      throw new UsageError(
        '--scheme standard signs "<id>.<timestamp>.<body>": give --id and --timestamp with --signature (the webhook-id and webhook-timestamp headers).',
      );
    headers.push('webhook-id', opts.id, 'webhook-timestamp', opts.timestamp);
  }
  // As --signature for the seed's scheme: a value that holds no signature at all is a usage error
  // (Cal.com's "no-secret-provided" is a diagnosis, not a typo: it gets its verdict).
  const claimed = scheme.read(headers);
  if (claimed.claims.length === 0 && claimed.problemCode === undefined)
    throw new UsageError(`--signature is not a ${scheme.title} signature: ${visible(claimed.problem ?? 'nothing to check')}.`);
  const age = ageRule(opts, ctx);
  const source = bodySource(ctx.io, opts.file, ctx.signal);
  const secrets = await resolveSecrets(opts, ctx, opts.file === undefined || opts.file === '-');
  const keys = schemeKeys(scheme, secrets);
  noteTerminalBody(ctx, source);
  const chunks: Buffer[] = [];
  await source.read((chunk) => chunks.push(Buffer.from(chunk)));
  const verdict = judgeScheme(scheme, headers, Buffer.concat(chunks), { secrets, keys, age, expectedEvent: opts.event });
  const out = await verdictWriter(ctx, false);
  await out.write(verdict);
  await out.end();
  return verdict.authentic ? ExitCode.OK : ExitCode.FAILURE;
}
