// Every file booking reads by name (config.json, a watch state file, a secret file, a capture, a HAR
// file, a body, a scenario) is opened here, the one safe way (issue 33): once, without waiting on a
// FIFO (O_NONBLOCK: open(2) of a FIFO with no writer would block a thread that neither Ctrl-C nor exit
// can interrupt), by default never through a link (O_NOFOLLOW); then checked on what was opened
// (fstat), never on the path: checking a path and opening it again would let another local user swap
// it in between. A regular file bigger than its bound is refused unread; a FIFO, a socket or a device
// is refused unless the caller streams it (a FIFO named on the command line is read, Ctrl-C ending the
// wait); a file booking trusts (the config, a state file) must be the user's and writable by no one else.
import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { UsageError } from './errors';
import { unreadable } from './input';
import { formatBytes } from './words';

// Not on Windows: there, 0 (no flag), and the owner checks below, which need a uid, are skipped.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Why a file was refused; the message says it in words. */
export type Refusal = 'symlink' | 'folder' | 'special' | 'too-big' | 'other-owner' | 'writable-by-others';

/** A file refused as opened (exit 2); `reason` for a caller that words its own hint. */
export class FileRefused extends UsageError {
  constructor(
    readonly reason: Refusal,
    message: string,
    hint?: string,
  ) {
    super(message, hint);
  }
}

export interface OwnFileRules {
  /** How messages name the file, path included: "the config file /x/config.json", "--state w.state". */
  name: string;
  /** A regular file bigger than this is refused unread. */
  maxBytes: number;
  /** Says what the bound is, after "over the N": "a config file may be". */
  bound: string;
  /** Open through a symlink (a file named on the command line: a Kubernetes secret is a link); else refused. */
  follow?: boolean;
  /** A FIFO, terminal or other device is returned to be streamed (named explicitly); else refused. */
  streams?: boolean;
  /** The user's own and writable by no one else: what it holds is trusted (a base URL, deliveries to sign). */
  mustBeOwn?: boolean;
  /** No file at the path: undefined is returned (a config or state not made yet); else it is an error. */
  mayBeMissing?: boolean;
  /** A second line for a refusal: how to fix it (`stats`: of what was opened, when it was). */
  hint?: RefusalHint;
}

export type RefusalHint = (reason: Refusal, stats?: Stats) => string | undefined;

/** The opened file and what it is; the caller closes `fd`. */
export interface OwnFile {
  fd: number;
  stats: Stats;
}

/** Opens `path` and checks what was opened by `rules`; undefined when missing and `mayBeMissing`. */
export function openOwnFile(path: string, rules: OwnFileRules): OwnFile | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (rules.follow ? 0 : NOFOLLOW) | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && rules.mayBeMissing) return undefined;
    // ELOOP from O_NOFOLLOW (EMLINK on the BSDs); a loop of links when following says ELOOP too.
    if (!rules.follow && (code === 'ELOOP' || code === 'EMLINK'))
      throw refused(rules, 'symlink', 'it is a symbolic link, and booking reads only the file itself, never where a link points');
    throw unreadable(rules.name, err);
  }
  try {
    const stats = fstatSync(fd);
    checkOpened(stats, rules);
    return { fd, stats };
  } catch (err) {
    closeSync(fd);
    throw err;
  }
}

/** The whole file, read to its size when opened and no further; undefined when missing and `mayBeMissing`. */
export function readOwnFile(path: string, rules: Omit<OwnFileRules, 'streams'>): Buffer | undefined {
  const file = openOwnFile(path, rules);
  if (!file) return undefined;
  try {
    // A file that grows while read is cut at its size when opened.
    const out = Buffer.allocUnsafe(file.stats.size);
    let at = 0;
    while (at < out.length) {
      const n = readSync(file.fd, out, at, out.length - at, null);
      if (n === 0) break;
      at += n;
    }
    return out.subarray(0, at);
  } catch (err) {
    throw unreadable(rules.name, err);
  } finally {
    closeSync(file.fd);
  }
}

function checkOpened(stats: Stats, rules: OwnFileRules): void {
  if (stats.isDirectory()) throw refused(rules, 'folder', 'it is a folder', stats);
  if (!stats.isFile() && !rules.streams) throw refused(rules, 'special', `it is not a regular file (${kindOf(stats)})`, stats);
  if (rules.mustBeOwn) checkOwn(rules.name, stats, rules.hint);
  if (stats.isFile() && stats.size > rules.maxBytes) {
    const bound = formatBytes(rules.maxBytes);
    // Just over the bound, the rough size would read as the bound itself ("4 KiB, over the 4 KiB").
    const size = formatBytes(stats.size, true) === bound ? `${stats.size} bytes` : formatBytes(stats.size, true);
    const why = `it is ${size}, over the ${bound} ${rules.bound}`;
    throw refused(rules, 'too-big', why, stats);
  }
}

/**
 * Refuses a file or folder (its stats) another user owns or may write to: they could plant what
 * booking then trusts. `name` as in OwnFileRules. Nothing to check on Windows.
 */
export function checkOwn(name: string, stats: Stats, hint?: RefusalHint): void {
  if (typeof process.getuid !== 'function') return;
  if (stats.uid !== process.getuid()) {
    const why = `it belongs to another user (uid ${stats.uid}), who could read or change what booking saves there`;
    throw new FileRefused('other-owner', `refusing ${name}: ${why}.`, hint?.('other-owner', stats));
  }
  const mode = stats.mode & 0o7777;
  if ((mode & 0o022) !== 0) {
    const why = `other users can write to it (mode ${mode.toString(8).padStart(4, '0')})`;
    throw new FileRefused('writable-by-others', `refusing ${name}: ${why}.`, hint?.('writable-by-others', stats));
  }
}

/** "a FIFO", "a socket", "a device": what a file that is not a regular one is, for messages. */
export function kindOf(stats: Pick<Stats, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  return 'a special file';
}

function refused(rules: OwnFileRules, reason: Refusal, why: string, stats?: Stats): FileRefused {
  return new FileRefused(reason, `refusing ${rules.name}: ${why}.`, rules.hint?.(reason, stats));
}
