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
  // node's own message repeats the path ("ENOTDIR: not a directory, open '/x'"): its code says enough.
  const errno = code !== undefined && /^E[A-Z]+$/.test(code) ? code : undefined;
  const why = (errno && WHY[errno]) ?? errno ?? (err as Error)?.message ?? String(err);
  return new UsageError(`cannot read ${path}: ${why}.`);
}

const WHY: Record<string, string> = {
  ENOENT: 'no such file',
  EACCES: 'permission denied',
  EISDIR: 'is a directory',
  ENOTDIR: 'a part of its path is not a folder',
  ELOOP: 'too many symbolic links',
};
