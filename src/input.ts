// Reading user-supplied input as raw bytes: a file path, or stdin for "-" / no path.
// fs.promises rather than node:fs/promises: the module loads on first use, not at start-up (~3 ms).
import { createReadStream, promises as fsp } from 'node:fs';
import type { Readable } from 'node:stream';
import type { IOStreams } from './io';
import { UsageError } from './errors';

/** The whole input as bytes, never decoded. A missing or unreadable file is a usage error (exit 2). */
export async function readAllBytes(io: IOStreams, path: string | undefined): Promise<Buffer> {
  if (path === undefined || path === '-') return readStream(io.stdin);
  try {
    return await fsp.readFile(path);
  } catch (err) {
    throw unreadable(path, err);
  }
}

/** The input as a stream of bytes (for hashing large bodies with flat memory). */
export async function openByteStream(io: IOStreams, path: string | undefined): Promise<Readable> {
  if (path === undefined || path === '-') return io.stdin;
  const stream = createReadStream(path);
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve());
    stream.once('error', (err) => reject(unreadable(path, err)));
  });
  return stream;
}

export async function readStream(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export function unreadable(path: string, err: unknown): UsageError {
  const code = (err as { code?: string })?.code;
  const why =
    code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : ((err as Error)?.message ?? String(err));
  return new UsageError(`cannot read ${path}: ${why}.`);
}
