#!/usr/bin/env node
// Entry point: runs the CLI and maps the outcome to the process exit code. The only place that exits.
//
// CommonJS (bin/package.json), because node starts a CommonJS file faster than an ES module. Start-up
// is most of what a short command costs, so:
// - `booking --version` is answered here, without loading the program;
// - the program, dist/cli.cjs, is compiled through vm.Script with a V8 code cache kept per command
//   in the user's cache folder (loadProgram, below; node 20 has no compile cache for ES modules);
// - V8 flags and the HTTP parser's compile are set up for short runs (below).
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// Ctrl-C is honoured from the first millisecond: the handler is in place before anything loads (a
// signal that arrives while the program loads is handled as soon as it has, instead of killing the
// process). The command is asked to stop through the AbortSignal and ends with whole lines written.
const controller = new AbortController();
let interrupted = false;
const onSignal = (signal) => {
  // A second Ctrl-C (or a command slow to stop) ends the process at once.
  if (interrupted) return exitWhenWritten(130);
  interrupted = true;
  controller.abort(new Error(signal));
  setTimeout(() => exitWhenWritten(130), 3000).unref();
};
process.on('SIGINT', onSignal);
process.on('SIGTERM', onSignal);

// Whether process.stderr has been made yet (watchStderr).
let stderrMade = false;

const argv = process.argv.slice(2);

function run() {
  // What the build read off the command tree (src/command-facts.ts): the global options that take a
  // value (their values are not command words), the commands that send requests and those whose runs
  // are short, as typed.
  const facts = readCommandFacts();
  const valueOptions = new Set(facts.valueOptions);

  /** ["bookings", "get"] for `booking -o json bookings get bk_1`: the code cache is per command. */
  const words = commandWords(argv, valueOptions);
  const command = words.join('-') || 'program';
  // A command of the list, named by its first word (`api`) or by two (`bookings get`).
  const oneOf = (list = []) => list.includes(words[0]) || list.includes(words.slice(0, 2).join(' '));
  // The commands that send requests parse responses with undici's llhttp (WebAssembly).
  const sendsRequests = oneOf(facts.sendsRequests);
  // The bundle of the command the words name, which holds no other command; the whole program's for
  // anything else (scripts/bundle/command-bundles.mjs).
  const named = [words.slice(0, 2), words.slice(0, 1)].find((w) => w.length > 0 && facts.bundles.includes(w.join(' ')));
  const bundle = named ? `cli-${named.join('-')}.cjs` : 'cli.cjs';

  // Before the program is compiled (the flags are part of what a code cache is checked against, node's
  // own caches of its modules too: loadProgram loads the ones the command needs before setting them):
  // - WebAssembly (llhttp) is compiled by V8's baseline compiler only: otherwise V8 optimises it in
  //   the background after the first response, and exiting waits for that (~60 ms);
  // - a command that sends requests compiles the whole parser up front, on a background thread
  //   (precompileParser below), rather than function by function on the main thread as it first runs;
  //   one thread only: on a small machine more compile threads take the cores the main thread needs
  //   while it loads the program (~0.6 ms of a `bookings get` on 2 cores);
  // - no scavenges scheduled as tasks: a short run would spend ~1 ms collecting young objects it is
  //   about to drop by exiting; a long one still collects them, when they fill the young generation;
  // - a young generation that keeps its first size: V8 doubles it (up to 32 MB) each time enough has
  //   survived its collections, which a long listing always gets to, so peak memory would grow with
  //   the length of the list (~70 MB at 20,000 bookings, ~105 MB at 300,000) instead of staying flat;
  // - a command whose run is one request and one record (`bookings get`) runs without V8's baseline
  //   compiler (Sparkplug): its batch compiles, on the main thread, are never earned back in so short
  //   a run (~1 ms of a `bookings get`); a listing keeps it (without it, 20,000 bookings take ~10% longer).
  const flags = `--liftoff-only --no-minor-gc-task --semi-space-growth-factor=1${sendsRequests ? ' --no-wasm-lazy-compilation --wasm-num-compilation-tasks=1' : ''}${oneOf(facts.shortRuns) ? ' --no-sparkplug' : ''}`;

  // stdout is made before the flags are set (below): node's modules behind it (net, tty, fs's stream
  // for a file) then load from node's code cache. Every run writes to it.
  process.stdout.on('error', onStreamError('stdout'));
  // stderr is made on first use: a pipe or terminal costs up to ~2 ms to set up, and a run that succeeds
  // quietly never writes to it. Its error handler is in place from the moment it exists.
  watchStderr();

  // saveCodeCache, called after a successful run, leaves or updates the code cache for the next run
  // of the same command. The flags are set in there, once node's modules the command needs are loaded (see there).
  const {
    exports: { main, precompileParser },
    saveCodeCache,
  } = loadProgram(bundle, command, () => require('node:v8').setFlagsFromString(flags));

  let settled = false;
  // The words: the program loads and builds only the command they name (src/commands/tree.ts).
  const start = () =>
    main(argv, { signal: controller.signal, words }).then((code) => {
      settled = true;
      if (code === 0 && !interrupted) saveCodeCache?.();
      // The command's own code, even after Ctrl-C: sandbox and webhook listen stop on it with exit 0.
      exitWhenWritten(code);
    });
  if (sendsRequests) {
    // V8 moves an asynchronous WebAssembly compile on only in tasks of the main thread's event loop,
    // and the command's chain of promises gives the loop no turn before its first connection (~10 ms
    // on). One turn first, and the parser compiles on its background thread while the command
    // starts: the first request no longer waits for it (~0.4 ms of a bookings get).
    precompileParser();
    setImmediate(start);
  } else start();
  // Nothing left to wait on, yet the command has not finished: node would exit 0, which a script takes
  // for success (a verdict never given, a body never read). That is a bug; say so and fail.
  // Checked on the next turn: another 'beforeExit' listener (the prompt's, for Ctrl-D) may settle it.
  process.on('beforeExit', () =>
    setImmediate(() => {
      if (settled) return;
      process.stderr.write('error: the command stopped before it finished (a bug in booking; please report it)\n');
      exitWhenWritten(1);
    }),
  );
}

// Writing into a closed pipe (`booking ... | head -1`) ends quietly. Any other failed write (a full
// disk, /dev/full, EIO) is one line on stderr where it can still be written, and exit 1: never exit 0
// with cut output, never a stack.
function onStreamError(name) {
  return (err) => {
    if (err && err.code === 'EPIPE') process.exit(interrupted ? 130 : 0);
    if (name === 'stdout') writeFailed(name, err);
    process.exit(1);
  };
}

/**
 * Exits once stdout and stderr hold nothing unwritten. Writes to a pipe are synchronous only while
 * the pipe has room: a reader slower than us leaves the rest queued in memory, and exiting then
 * would cut the output short. A reader that goes away ends the wait through onStreamError.
 */
function exitWhenWritten(code) {
  let pending = 0;
  for (const stream of stderrMade ? [process.stdout, process.stderr] : [process.stdout]) {
    // A write that failed just now (to a file: synchronously) has not yet emitted its 'error'.
    if (stream.errored) return onStreamError(stream === process.stdout ? 'stdout' : 'stderr')(stream.errored);
    if (stream.writableLength > 0) {
      pending++;
      stream.write('', () => --pending === 0 && process.exit(code));
    }
  }
  if (pending === 0) process.exit(code);
}

/** process.stderr, made by node's own getter on first use, gets our error handler as it is made. */
function watchStderr() {
  const own = Object.getOwnPropertyDescriptor(process, 'stderr');
  if (!own || typeof own.get !== 'function' || !own.configurable) {
    stderrMade = true;
    process.stderr.on('error', onStreamError('stderr'));
    return;
  }
  Object.defineProperty(process, 'stderr', {
    configurable: true,
    enumerable: own.enumerable,
    get() {
      const stream = own.get.call(process);
      if (!stderrMade) {
        stderrMade = true;
        stream.on('error', onStreamError('stderr'));
      }
      return stream;
    },
  });
}

/** Writes without creating process.stdout (which costs more than the rest of --version). */
function writeStdout(text) {
  try {
    fs.writeSync(1, text);
  } catch (err) {
    if (err.code === 'EAGAIN') process.stdout.write(text);
    else if (err.code !== 'EPIPE') {
      writeFailed('stdout', err);
      process.exitCode = 1;
    }
  }
}

/** "error: cannot write to stdout: no space left on device (ENOSPC)" on stderr, if stderr can take it. */
function writeFailed(name, err) {
  const code = err && typeof err.code === 'string' ? err.code : 'EIO';
  const texts = { ENOSPC: 'no space left on device', EIO: 'input/output error', EDQUOT: 'disk quota exceeded', EFBIG: 'file too large' };
  try {
    fs.writeSync(2, `error: cannot write to ${name}: ${texts[code] ? `${texts[code]} (${code})` : code}\n`);
  } catch {}
}

/** dist/command-facts.json; nothing known when it is missing (not built: loadProgram says so). */
function readCommandFacts() {
  try {
    return JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'dist', 'command-facts.json'), 'utf8'));
  } catch (err) {
    if (err.code !== 'ENOENT') throw err;
    return { valueOptions: [], sendsRequests: [], shortRuns: [], bundles: [] };
  }
}

/** The first two command words of argv, global options and their values skipped. */
function commandWords(args, valueOptions) {
  const words = [];
  for (let i = 0; i < args.length && words.length < 2; i++) {
    const arg = args[i];
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (valueOptions.has(arg)) i++;
      continue;
    }
    if (!/^[a-z][a-z0-9-]{0,31}$/.test(arg)) break;
    words.push(arg);
  }
  return words;
}

// --- The program and its code cache -----------------------------------------------------------
//
// In this file rather than a module of its own: node's resolver and loader cost a second module
// ~0.4 ms of every start (its package scope looked up, its path resolved and made real).
//
// The program, dist/cli.cjs or a command's own bundle (dist/cli-bookings-get.cjs…), compiled through
// vm.Script with a V8 code cache kept per command in the user's cache folder (node 20 has no compile
// cache for ES modules).
//
// V8 checks a cache only against the length of the source and the flags, then runs the code it
// holds: a cache that another user could have written is code of their choosing, run as this user.
// So a cache is read or written only when its folders and file belong to the current user and no one
// else can write them; otherwise it is skipped, silently (it only saves start-up time). Caches are
// named by the build's hash, a sha256 of the bundle's bytes (scripts/build.mjs), not by its length.

/**
 * Runs dist/<bundle>; `saveCodeCache` leaves or updates the cache for the next run of the command
 * (a command's runs all load one bundle). `setFlags` sets V8's flags (run, above): called here,
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

// A cache file: this line, then V8's bytes. "booking-code-cache 1 net,process   \n"
// The line is padded with spaces to a multiple of 8 bytes: V8 reads a cache in place only when its
// bytes start 8-aligned (the buffer it is read into is), and otherwise copies the whole of it first
// (~350 KB and ~85 fresh pages for a `bookings get`).
const CACHE_HEAD = 'booking-code-cache 1 ';

/** { builtins, data } of a cache file's bytes, or undefined for none or another format (rewritten then). */
function parseCache(bytes) {
  if (bytes === undefined || bytes.latin1Slice(0, CACHE_HEAD.length) !== CACHE_HEAD) return undefined;
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  const names = bytes.latin1Slice(CACHE_HEAD.length, end).trimEnd();
  // Only names of node's modules are ever required from it.
  const builtins = names.split(',').filter((name) => /^[a-z_][a-z0-9_/]*$/.test(name));
  return { builtins, data: bytes.subarray(end + 1) };
}

function formatCache(builtins, data) {
  const line = `${CACHE_HEAD}${builtins.join(',')}`;
  const padded = line.padEnd(Math.ceil((line.length + 1) / 8) * 8 - 1);
  return Buffer.concat([Buffer.from(`${padded}\n`, 'latin1'), data]);
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

// --- The run -------------------------------------------------------------------------------------
// Here, at the end, so that every declaration above is in place.

// `booking --version` alone is answered here, before the program loads.
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  writeStdout(`${require('../package.json').version}\n`);
} else {
  run();
}
