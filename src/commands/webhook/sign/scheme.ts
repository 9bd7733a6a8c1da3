// `webhook sign --scheme X` for a scheme other than the seed's: the body in memory, and the scheme's
// header lines ("Stripe-Signature: t=…,v1=…"), ready for curl -H or a test's fixture.
import type { Context } from '../../../context';
import { createRecordWriter } from '../../../output/records';
import { bodySource } from '../../../webhook/reader';
import { schemeNamed } from '../../../webhook/schemes/index';
import { schemeHeaders, signParts } from '../../../webhook/schemes/sign';
import { visible } from '../../../webhook/text';
import { resolveSigningSecret, type SecretOptions } from '../shared/secret';
import type { SchemeName } from '../../../webhook/schemes/names';
import { noteTerminalBody } from '../shared/terminal-note';

interface Signed {
  scheme: string;
  headers: Record<string, string>;
  bytes: number;
}

/** What signing in a scheme takes of `webhook sign`'s options. */
type SchemeSign = SecretOptions & { file?: string; scheme?: SchemeName; id?: string; timestamp?: number };

export async function signInScheme(opts: SchemeSign, ctx: Context): Promise<number> {
  const scheme = schemeNamed(opts.scheme!);
  const source = bodySource(ctx.io, opts.file, ctx.signal);
  const secret = await resolveSigningSecret(opts, ctx, opts.file === undefined || opts.file === '-');
  // The key first: a secret that is no key of the scheme is exit 2 before the body is waited for.
  scheme.key(secret.bytes, secret.label);
  noteTerminalBody(ctx, source);
  const chunks: Buffer[] = [];
  await source.read((chunk) => chunks.push(Buffer.from(chunk)));
  const body = Buffer.concat(chunks);
  const flat = schemeHeaders(scheme, secret, body, signParts(ctx.now(), { id: opts.id, timestamp: opts.timestamp }));
  const headers: Record<string, string> = {};
  for (let i = 0; i < flat.length; i += 2) headers[flat[i]!] = flat[i + 1]!;
  const lines = (r: Signed) => Object.entries(r.headers).map(([name, value]) => `${name}: ${visible(value)}`);
  const out = await createRecordWriter(ctx, 'one', {
    keys: ['scheme', 'headers', 'bytes'],
    data: (r: Signed) => ({ ...r }),
    line: (r) => lines(r).join('\n'),
  });
  await out.write({ scheme: scheme.name, headers, bytes: body.length });
  await out.end();
  return 0;
}
