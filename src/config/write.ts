// Writing config.json through conf, which writes atomically (temp file + rename), so a reader or a
// crash never sees half a file. Loaded only by commands that save something: conf brings in ajv.
import { chmodSync, statSync } from 'node:fs';
import { basename, dirname, extname } from 'node:path';
import { FailureError } from '../base/errors';
import { makeDirs } from '../base/make-dirs';
import { emptyConfig, malformedConfig, readConfigFile, stripBom, type ConfigData } from './file';
import { withFileLock } from './lock';
import { assertTrustedConfig } from './trust';

const FILE_MODE = 0o600;
const DIR_MODE = 0o700;

/**
 * Re-reads the file under the lock, applies `change` to what is on disk now (not to what this process
 * read at start, so another writer's change survives), and writes it back if `change` says it changed
 * anything. A malformed file throws before anything is written.
 */
export async function updateConfigFile(path: string, change: (data: ConfigData) => boolean): Promise<ConfigData> {
  assertTrustedConfig(path);
  ensurePrivateDir(dirname(path));
  return withFileLock(`${path}.lock`, async () => {
    // Again, now that the folder exists and no other booking is writing.
    assertTrustedConfig(path);
    const data = readConfigFile(path);
    if (!change(data)) return data;
    refuseReadOnly(path);
    await writeThroughConf(path, data);
    return data;
  });
}

async function writeThroughConf(path: string, data: ConfigData): Promise<void> {
  const { default: Conf } = await import('conf');
  try {
    const ext = extname(path);
    const conf = new Conf<ConfigData>({
      cwd: dirname(path),
      configName: basename(path, ext),
      fileExtension: ext.replace(/^\./, ''),
      configFileMode: FILE_MODE,
      accessPropertiesByDotNotation: false,
      clearInvalidConfig: false,
      serialize: (value) => `${JSON.stringify(value, null, 2)}\n`,
      // A blank file (`: > config.json`) holds nothing, as readConfigFile agrees.
      deserialize: (text) => (stripBom(text).trim() === '' ? emptyConfig() : (JSON.parse(stripBom(text)) as ConfigData)),
    });
    conf.store = data;
    // The umask can only narrow the mode; an older file made by hand may be wider: set it exactly.
    chmodSync(path, FILE_MODE);
  } catch (err) {
    // conf re-reads the file in its constructor; it can only fail to parse if a writer that takes no
    // lock (a hand edit) broke it in between. Still never written over.
    if ((err as Error)?.name === 'SyntaxError') throw malformedConfig(path, 'it is not valid JSON');
    throw cannotWrite(path, err);
  }
}

/**
 * The config folder, created 0700; one that exists is narrowed to its owner's bits (0755 → 0700),
 * never widened: a folder the user made read-only (0500) stays so, and the write then fails, said.
 */
function ensurePrivateDir(dir: string): void {
  try {
    makeDirs(dir, DIR_MODE);
  } catch (err) {
    throw cannotWrite(dir, err);
  }
  try {
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) !== 0) chmodSync(dir, mode & 0o700);
  } catch {
    // Not ours to narrow: assertTrustedConfig has already refused a folder that matters.
  }
}

/**
 * A config.json its owner made read-only (0400) stays so: conf's atomic write (a new file renamed over
 * it) would have replaced it with a 0600 one, a mode widened without a word. As a read-only folder
 * does, the write fails, said, and the file is left as it is.
 */
function refuseReadOnly(path: string): void {
  let mode: number;
  try {
    mode = statSync(path).mode;
  } catch {
    return; // not there yet: made 0600
  }
  if ((mode & 0o200) === 0)
    throw new FailureError(
      `cannot write the config at ${path}: it is read-only (mode ${(mode & 0o777).toString(8).padStart(4, '0')}); it is left as it is.`,
      `to change it, make it writable: chmod u+w ${path}`,
    );
}

function cannotWrite(path: string, err: unknown): FailureError {
  const e = err as NodeJS.ErrnoException;
  const why =
    e?.code === 'EACCES' || e?.code === 'EPERM'
      ? 'permission denied'
      : e?.code === 'ENOTDIR'
        ? 'a part of the path is not a folder'
        : (e?.code ?? e?.message ?? String(err));
  return new FailureError(`cannot write the config at ${path}: ${why}.`);
}
