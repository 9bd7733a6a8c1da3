// @ts-check
// Where bin/booking.js keeps node's compile cache (node 22.1+), if anywhere.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/**
 * The folder for node's compile cache, or undefined when none is safe. Node loads what it finds there
 * as compiled code, so it must be the user's own: `booking-cli` in the user's cache folder, a real
 * folder (a symlink is never followed), owned by the user and writable by no one else, in a parent no
 * one else can swap it in (the user's or root's; sticky, as /tmp, if others may write there).
 * @param {NodeJS.ProcessEnv} env
 */
function compileCacheDir(env) {
  const base = env.XDG_CACHE_HOME || (env.HOME && path.join(env.HOME, process.platform === 'darwin' ? 'Library/Caches' : '.cache'));
  if (!base || !path.isAbsolute(base)) return undefined;
  const dir = path.join(base, 'booking-cli');
  const uid = process.getuid?.();
  try {
    // One level at a time, never `recursive`: node's recursive mkdir spins for ever under /proc/self.
    for (const folder of [base, dir]) if (!fs.existsSync(folder)) fs.mkdirSync(folder, { mode: 0o700 });
    const parent = fs.statSync(base);
    const own = fs.lstatSync(dir);
    if (uid === undefined) return dir; // Windows: no owners or modes to check
    const parentOk = (parent.uid === uid || parent.uid === 0) && ((parent.mode & 0o022) === 0 || (parent.mode & 0o1000) !== 0);
    return parentOk && own.isDirectory() && own.uid === uid && (own.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

module.exports = { compileCacheDir };
