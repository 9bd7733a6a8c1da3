// Files booking reads settings from, taken the one safe way:
// opened once (O_NOFOLLOW: never through a link; O_NONBLOCK: a FIFO does not hang the open), then
// checked on what was opened (fstat: a regular file, ours, writable by no one else, within its size
// bound) and read to that size at most. Checking a path and then opening it again would let another
// local user swap the path in between; reading without a bound let a 3 GB config cost 4.2 GB and a
// FIFO hang for ever, deaf to Ctrl-C (issue 33).
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from '../base/errors';

// Not on Windows: there, 0 (no flag) and the checks below that need a uid are skipped.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

export interface OwnFileRules {
  /** What the file is, for messages: "config file". */
  what: string;
  /** Bigger than this is refused unread. */
  maxBytes: number;
  /** Further checks of the opened file's stats (owner, mode); throws to refuse it. */
  check?(stats: Stats): void;
  /** The refusal of a symlink at the path (O_NOFOLLOW's ELOOP). */
  symlink(): Error;
}

/** The file's bytes, checked as opened; undefined when there is no file at `path`. */
export function readOwnFile(path: string, rules: OwnFileRules): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ELOOP') throw rules.symlink();
    throw cannotRead(path, rules.what, code === 'EACCES' ? 'permission denied' : (code ?? String(err)));
  }
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) throw cannotRead(path, rules.what, 'it is a directory');
    if (!stats.isFile()) throw new UsageError(`refusing the ${rules.what} ${path}: it is not a regular file (${kindOf(stats)}).`);
    rules.check?.(stats);
    if (stats.size > rules.maxBytes)
      throw new UsageError(
        `refusing the ${rules.what} ${path}: it is ${roughSize(stats.size)}, over the ${roughSize(rules.maxBytes)} a ${rules.what} may be.`,
      );
    // Its size when opened, at most: a file that grows while read is cut there, never read on.
    const out = Buffer.allocUnsafe(stats.size);
    let at = 0;
    while (at < out.length) {
      const n = readSync(fd, out, at, out.length - at, null);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

function cannotRead(path: string, what: string, why: string): UsageError {
  return new UsageError(`cannot read the ${what} ${path}: ${why}.`);
}

function kindOf(stats: Stats): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  return 'not a file';
}

/** "3 GiB", "1.5 MiB": a size for a message, to one decimal. */
function roughSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 2 ** 30],
    ['MiB', 2 ** 20],
    ['KiB', 2 ** 10],
  ] as const) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(1))} ${unit}`;
  }
  return `${bytes} bytes`;
}
