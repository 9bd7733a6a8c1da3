// Reading user-supplied input: a whole stream as raw bytes (login --with-key), and the one-line error
// for a file that cannot be read. Webhook bodies and captures have their own readers (src/webhook/).
import type { Readable } from 'node:stream';
import { UsageError } from './errors';

export async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function unreadable(path: string, err: unknown): UsageError {
  const code = (err as { code?: string })?.code;
  const why =
    code === 'ENOENT'
      ? 'no such file'
      : code === 'EACCES'
        ? 'permission denied'
        : code === 'EISDIR'
          ? 'is a directory'
          : ((err as Error)?.message ?? String(err));
  return new UsageError(`cannot read ${path}: ${why}.`);
}
