// `webhook sign`: the X-Service-Signature value for a body, hashed as a stream.
import type { Context } from '../../context';
import { outputFormat } from '../../context';
import { createSigner } from '../../webhook/signature';
import { bodySource } from '../../webhook/reader';
import { resolveSecret, type SecretOptions } from './secret';
import { noteTerminalBody } from './terminal-note';
import { jsonText } from '../../webhook/text';

export interface SignOptions extends SecretOptions {
  file?: string;
}

export async function signBody(opts: SignOptions, ctx: Context): Promise<number> {
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
  const format = outputFormat(ctx);
  if (format === 'json' || format === 'ndjson') ctx.io.stdout.write(jsonText({ signature, bytes }, format === 'json'));
  else ctx.io.stdout.write(`${signature}\n`);
  return 0;
}
