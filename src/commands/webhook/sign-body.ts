// `webhook sign`'s run: the X-Service-Signature value for a body, hashed as a stream.
import type { Context } from '../../context';
import { createSigner } from '../../webhook/signature';
import { bodySource } from '../../webhook/reader';
import { resolveSecret } from './secret';
import { noteTerminalBody } from './terminal-note';
import { createRecordWriter } from '../../output/records';
import type { SignOptions } from './sign';

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
