// The program, dist/cli.cjs or a command's own bundle (dist/cli-bookings-get.cjs…), compiled through
// vm.Script with a V8 code cache kept per command in the user's cache folder (node 20 has no compile
// cache for ES modules).
//
// V8 checks a cache only against the length of the source and the flags, then runs the code it
// holds: a cache that another user could have written is code of their choosing, run as this user.
// So a cache is read or written only when its folders and file belong to the current user and no one
// else can write them; otherwise it is skipped, silently (it only saves start-up time). Caches are
// named by the build's hash, a sha256 of the bundle's bytes (scripts/build.mjs), not by its length.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

/**
 * Runs dist/<bundle>; `saveCodeCache` leaves or updates the cache for the next run of the command
 * (a command's runs all load one bundle). `setFlags` sets V8's flags (bin/booking.js): called here,
 * just before the program is compiled.
 *
 * V8 checks every code cache against its flags, node's own for its built-in modules too: a module of
 * node's loaded after the flags change is compiled from its source (`net`: ~5 ms instead of ~1.5).
 * So a cache records the built-in modules its run loaded after that point, and the next run loads
 * them before it sets the flags.
 */
function loadProgram(fileName, command, setFlags) {
  const vm = require('node:vm');
  const file = path.join(__dirname, '..', 'dist', fileName);
  // latin1: the build makes the file pure ASCII, and a one-byte decode is the cheapest.
  let source;
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const bytes = readWhole(fd, fs.fstatSync(fd).size);
      source = bytes.latin1Slice(0, bytes.length);
    } finally {
      fs.closeSync(fd);
    }
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    // A clone that was installed but not built (the build runs in prepack and npm run build/test/demo).
    process.stderr.write(`error: booking is not built: ${file} is missing; run \`npm run build\` in ${path.dirname(__dirname)}\n`);
    process.exit(1);
  }
  const build = /^\/\/ booking-cli build ([0-9a-f]{16})\n/.exec(source)?.[1];
  const cacheFile = build && codeCacheFile(build, command);
  const usable = cacheFile !== undefined && trustedFolders(cacheFile);
  const cache = usable ? parseCache(readPrivateFile(cacheFile)) : undefined;
  for (const name of cache?.builtins ?? []) {
    try {
      require(`node:${name}`);
    } catch {} // one this node does not have: it only costs time
  }
  setFlags();
  const loaded = process.moduleLoadList?.length;
  // The file is the program wrapped in a function (scripts/build.mjs), compiled as it is.
  const script = new vm.Script(source, {
    filename: file,
    cachedData: cache?.data,
  });
  let saveCodeCache;
  if (cacheFile && (!cache || script.cachedDataRejected)) {
    // Made after the command ran, so that the functions it compiled are in it; writeCodeCache checks
    // the folders again once it has made them.
    saveCodeCache = () => writeCodeCache(cacheFile, () => formatCache(builtinsSince(loaded), script.createCachedData()), build);
  } else if (cacheFile) {
    // A cache made by a run whose stdout and stderr were other kinds of file (a terminal then, a file
    // now) does not name what this run loaded after the flags: its first line gains those names, so
    // that the next run loads them from node's cache too (net: ~4 ms each run otherwise).
    saveCodeCache = () => {
      const more = builtinsSince(loaded).filter((name) => !cache.builtins.includes(name));
      if (more.length > 0) writeCodeCache(cacheFile, () => formatCache([...cache.builtins, ...more], cache.data), build);
    };
  }
  const module = { exports: {} };
  let url;
  const bundle = {
    get url() {
      url ??= require('node:url').pathToFileURL(file).href;
      return url;
    },
  };
  script.runInThisContext()(module.exports, require, module, file, path.dirname(file), bundle);
  return { exports: module.exports, saveCodeCache };
}

// A cache file: this line, then V8's bytes. "booking-code-cache 1 net,process\n"
const CACHE_HEAD = 'booking-code-cache 1 ';

/** { builtins, data } of a cache file's bytes, or undefined for none or another format (rewritten then). */
function parseCache(bytes) {
  if (bytes === undefined || bytes.latin1Slice(0, CACHE_HEAD.length) !== CACHE_HEAD) return undefined;
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  const names = bytes.latin1Slice(CACHE_HEAD.length, end);
  // Only names of node's modules are ever required from it.
  const builtins = names.split(',').filter((name) => /^[a-z_][a-z0-9_/]*$/.test(name));
  return { builtins, data: bytes.subarray(end + 1) };
}

function formatCache(builtins, data) {
  return Buffer.concat([Buffer.from(`${CACHE_HEAD}${builtins.join(',')}\n`, 'latin1'), data]);
}

/** The public modules of node's loaded since `process.moduleLoadList` had `from` entries. */
function builtinsSince(from) {
  const list = process.moduleLoadList;
  if (from === undefined || !Array.isArray(list)) return [];
  const names = [];
  for (const entry of list.slice(from)) {
    const name = entry.startsWith('NativeModule ') ? entry.slice(13) : '';
    if (name && !name.startsWith('internal/')) names.push(name);
  }
  return names;
}

/**
 * <user cache>/booking-cli/<node version>-<arch>-<install>[-<options>]/<build>-<command>.v8cache, or undefined
 * when there is no cache folder or NODE_DISABLE_COMPILE_CACHE is set (node's own switch for its
 * compile cache).
 * One cache per command ("bookings-get", "webhook-verify"…): a cache holds the functions its run
 * compiled, so a command reuses only what it needs.
 */
function codeCacheFile(build, command) {
  const env = process.env;
  if (env.NODE_DISABLE_COMPILE_CACHE) return undefined;
  const base =
    env.XDG_CACHE_HOME ||
    (process.platform === 'win32'
      ? env.LOCALAPPDATA
      : env.HOME && path.join(env.HOME, process.platform === 'darwin' ? 'Library/Caches' : '.cache'));
  if (!base || !path.isAbsolute(base)) return undefined;
  // V8 rejects a cache made under other flags: runs with other node options get folders of their own
  // rather than rewriting each other's caches.
  const options = [...process.execArgv, env.NODE_OPTIONS ?? ''].join(' ').trim();
  // Per install too: a cache keeps the file name its functions were compiled from, and stack traces
  // would otherwise name another checkout of the same build.
  const folder = `${process.version}-${process.arch}-${fnv1a(__dirname)}${options ? `-${fnv1a(options)}` : ''}`;
  return path.join(base, 'booking-cli', folder, `${build}-${command}.v8cache`);
}

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/** Node's uid, or undefined where there is none (Windows: no owners or modes to check). */
const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;

/** Owned by the current user, a folder or file as asked, and writable by no one else. */
function isPrivate(stats, folder) {
  if (uid === undefined) return true;
  return (folder ? stats.isDirectory() : stats.isFile()) && stats.uid === uid && (stats.mode & 0o022) === 0;
}

/**
 * The cache's own two folders are private, and the user cache folder above them cannot have them
 * swapped by someone else (it is the user's or root's, and shared only with the sticky bit, as /tmp).
 */
function trustedFolders(cacheFile) {
  const dir = path.dirname(cacheFile);
  const root = path.dirname(dir);
  try {
    const base = fs.statSync(path.dirname(root));
    const baseOk = uid === undefined || ((base.uid === uid || base.uid === 0) && ((base.mode & 0o022) === 0 || (base.mode & 0o1000) !== 0));
    return baseOk && isPrivate(fs.statSync(root), true) && isPrivate(fs.statSync(dir), true);
  } catch {
    return false;
  }
}

// The source and then the code cache are read into this one buffer, each once: the source is copied
// out of it as a string, and the cache is read over it into memory already touched. Fresh memory
// costs a page fault per 4 KB at first touch (~0.4 ms for a cache's ~400 KB on a small VM). It is
// made twice the size of the first file: the cache of a command's run is often a little larger than
// its bundle, and memory never touched costs nothing.
let scratch;

/** The first `size` bytes of the open file (fewer if it is shorter now), in the shared buffer. */
function readWhole(fd, size) {
  if (scratch === undefined || scratch.length < size) scratch = Buffer.allocUnsafeSlow(2 * size);
  let read = 0;
  for (let n; read < size && (n = fs.readSync(fd, scratch, read, size - read, read)) > 0; ) read += n;
  return scratch.subarray(0, read);
}

/** The file's bytes when it is a private regular file (opened without following a symlink), else undefined. */
function readPrivateFile(file) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
    // Checked on the open file, so that it cannot be swapped between the check and the read.
    const stats = fs.fstatSync(fd);
    return isPrivate(stats, false) ? readWhole(fd, stats.size) : undefined;
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** Best effort: written whole under a temporary name and renamed; caches of other builds are removed. */
function writeCodeCache(file, data, build) {
  const dir = path.dirname(file);
  const temp = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Made by someone else since the program loaded (or not made private): not written into.
    if (!trustedFolders(file)) return;
    fs.writeFileSync(temp, data(), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
    for (const name of fs.readdirSync(dir)) {
      if (name.endsWith('.v8cache') && !name.startsWith(`${build}-`)) fs.rmSync(path.join(dir, name), { force: true });
    }
    // Each folder names its install; the folders of installs that are gone (a deleted checkout, an
    // npx folder) are removed, so that caches do not pile up.
    const marker = path.join(dir, 'install');
    if (!fs.existsSync(marker)) fs.writeFileSync(marker, `${__dirname}\n`, { mode: 0o600 });
    const root = path.dirname(dir);
    for (const name of fs.readdirSync(root)) {
      const other = path.join(root, name);
      let install;
      try {
        install = fs.readFileSync(path.join(other, 'install'), 'utf8').trim();
      } catch {
        continue; // not ours to judge (a folder of an older version, or being written)
      }
      if (other === dir || !path.isAbsolute(install) || fs.existsSync(install)) continue;
      try {
        fs.rmSync(other, { recursive: true, force: true });
      } catch {} // one that cannot be removed does not keep the rest
    }
  } catch {
    try {
      fs.rmSync(temp, { force: true });
    } catch {}
  }
}

module.exports = { loadProgram };
