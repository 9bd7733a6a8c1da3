// Whether the config may be used at all. Another local user who owns, or can write, the config folder
// or file could plant a base URL that then receives the key, or own the file the key is saved into
// (conf's atomic writer gives a rewritten file back to its old owner). So before anything is read or
// written: the folder and the file must belong to the current user and be writable by no one else,
// and the file must not be a symlink (it could point anywhere, into someone else's file).
import { lstatSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../base/errors';
import { checkOwn, type OwnFileRules, type RefusalHint } from '../base/own-file';

const FOREIGN_FIX = 'set BOOKING_CONFIG_DIR to a folder of your own (not a shared one such as /tmp).';

/** UsageError (exit 2) naming the path and the fix when the config folder or file is not private. */
export function assertTrustedConfig(file: string): void {
  // Windows has no uid and no mode bits to check.
  if (typeof process.getuid !== 'function') return;
  const dir = dirname(file);
  const folder = statIfThere(() => statSync(dir));
  if (folder) checkOwner(dir, 'folder', folder, 'chmod 700');
  const own = statIfThere(() => lstatSync(file));
  if (!own) return;
  if (own.isSymbolicLink()) throw symlinkRefusal(file);
  checkOwner(file, 'file', own, 'chmod 600');
}

/** The refusal of a config file that is a symlink. */
function symlinkRefusal(file: string): UsageError {
  return new UsageError(
    `refusing the config file ${file}: it is a symlink, and the key must not be read from or written into a file elsewhere.`,
    symlinkFix(file),
  );
}

function symlinkFix(file: string): string {
  return `replace it with the file itself (cp --remove-destination "$(readlink -f ${shellWord(file)})" ${shellWord(file)}), or ${FOREIGN_FIX}`;
}

/**
 * Refuses a config folder or file another user owns or may write to (base/own-file.ts's checkOwn).
 * `chmod` is the command that fixes the mode, without its path. Nothing to check on Windows.
 */
function checkOwner(path: string, what: 'folder' | 'file', stats: Stats, chmod: string): void {
  checkOwn(`the config ${what} ${path}`, stats, configHint(path, chmod));
}

/** config.json as base/own-file.ts opens it: a regular file, ours and private, at most MAX_CONFIG_BYTES. */
export function configFileRules(path: string): OwnFileRules {
  return {
    name: `the config file ${path}`,
    maxBytes: MAX_CONFIG_BYTES,
    bound: 'a config file may be',
    mustBeOwn: true,
    mayBeMissing: true,
    hint: configHint(path, 'chmod 600'),
  };
}

/** A config bigger than this is refused unread: a few profiles take a few hundred bytes. */
const MAX_CONFIG_BYTES = 2 ** 20;

/** The second line of a refusal of the config folder or file: how to fix it. */
function configHint(path: string, chmod: string): RefusalHint {
  return (reason, stats) => {
    if (reason === 'symlink') return symlinkFix(path);
    if (reason === 'other-owner') return FOREIGN_FIX;
    if (reason !== 'writable-by-others') return undefined;
    // A sticky folder (mode 1777, like /tmp) is shared on purpose: narrowing it is not the fix.
    const shared = ((stats?.mode ?? 0) & 0o1000) !== 0;
    return shared ? FOREIGN_FIX : `run: ${chmod} ${shellWord(path)}, or ${FOREIGN_FIX}`;
  };
}

/**
 * The stats, or undefined when the path is not there (nothing to distrust yet) or cannot even be
 * looked at (EACCES on a parent: reading it fails next, with its own message).
 */
function statIfThere(stat: () => Stats): Stats | undefined {
  try {
    return stat();
  } catch {
    return undefined;
  }
}

/** A path as one shell word, quoted only when it needs to be. */
function shellWord(path: string): string {
  return /^[\w@%+=:,./-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}
