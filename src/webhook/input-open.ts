// Opening what the user named as an input: a path, or stdin for "-". A regular file is read by
// position (body-source.ts); a pipe, FIFO or terminal is read once as a stream (stream-input.ts).
import { closeSync, constants, createReadStream, fstatSync, openSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { IOStreams } from '../io';
import { unreadable } from '../input';
import type { StreamInput } from './stream-input';

export interface FileInput {
  kind: 'file';
  path: string;
  fd: number;
}
export type Input = FileInput | StreamInput;

// What the shell hands over for stdin. Opening one fails with ENXIO when stdin is a socket (node and
// other runtimes give their children socket pairs): then stdin itself is read.
const STDIN_PATHS = new Set(['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']);

// The read of a stream waits for data in the event loop, through libuv's handles.
const CHUNK = 64 * 1024;

/** Opens `path` (stdin for "-") and tells a regular file from a stream. Missing, unreadable or a directory → UsageError (exit 2). */
export function openInput(io: IOStreams, path: string): Input {
  const input = openUnprobed(io, path);
  if (input.kind === 'stream') return input;
  const stat = fstatSync(input.fd);
  if (stat.isFile()) return input;
  if (stat.isDirectory()) {
    closeSync(input.fd);
    throw unreadable(path, { code: 'EISDIR' });
  }
  return streamInput(path, input.fd);
}

/**
 * Opens `path` (stdin for "-") without asking what it is: the "file" may turn out at its first
 * positional read (ESPIPE, nothing consumed) to be a pipe or a terminal, to be read then through
 * streamInput(). Saves the fstat, a system call for each of thousands of captures in one run.
 */
export function openUnprobed(io: IOStreams, path: string): Input {
  if (path === '-') return stdinInput(io, 'stdin');
  try {
    // Without waiting: open(2) of a FIFO nobody writes to yet waits for a writer, with the whole
    // process, Ctrl-C included. O_NONBLOCK changes nothing for a regular file; a pipe or a terminal
    // is read through libuv's handles, which are made for non-blocking descriptors.
    return { kind: 'file', path, fd: openSync(path, constants.O_RDONLY | constants.O_NONBLOCK) };
  } catch (err) {
    if ((err as { code?: string }).code === 'ENXIO' && STDIN_PATHS.has(path)) return stdinInput(io, path);
    throw unreadable(path, err);
  }
}

/** A descriptor that is not a regular file, as a stream: a pipe or FIFO, a terminal, another device. */
export function streamInput(path: string, fd: number): StreamInput {
  const stat = fstatSync(fd);
  const terminal = stat.isCharacterDevice() && nodeModule<typeof import('node:tty')>('node:tty').isatty(fd);
  let open: () => Readable;
  if (stat.isFIFO()) open = () => new (nodeModule<typeof import('node:net')>('node:net').Socket)({ fd, readable: true, writable: false });
  else if (terminal) open = () => new (nodeModule<typeof import('node:tty')>('node:tty').ReadStream)(fd);
  // Another device: an fs stream with no start position, reading on from where it is (no ESPIPE).
  else open = () => createReadStream(path, { fd, highWaterMark: CHUNK });
  return { kind: 'stream', name: path, open, owned: true, terminal };
}

function stdinInput(io: IOStreams, name: string): StreamInput {
  // `< some-folder`: node's stdin would read it as an empty body and the command would go on.
  assertNotFolder(name);
  return { kind: 'stream', name, open: () => io.stdin, owned: false, terminal: io.stdinIsTTY };
}

function assertNotFolder(name: string): void {
  let folder = false;
  try {
    folder = fstatSync(0).isDirectory();
  } catch {
    return; // no stdin to look at: reading it says what is wrong
  }
  if (folder) throw unreadable(name, { code: 'EISDIR' });
}

// node:net and node:tty are loaded only for a pipe or a device: at start-up they cost ~2 ms, which
// every run over regular files (thousands of captures included) would pay for nothing.
function nodeModule<T>(name: 'node:net' | 'node:tty'): T {
  return process.getBuiltinModule(name) as T;
}
