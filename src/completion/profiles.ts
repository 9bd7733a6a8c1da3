// Profile names for `--profile <TAB>`, read straight from the config file. The shell waits on this, so
// it parses the JSON itself instead of opening the config store (conf and its dependencies); the file
// is opened as every command opens it (base/own-file.ts): a FIFO there must not hang the shell.
import { readOwnFile } from '../base/own-file';
import { configFilePath } from '../config/paths';
import { assertTrustedConfig, configFileRules } from '../config/trust';

type Env = Record<string, string | undefined>;

/**
 * The profiles in the config, in file order. A missing, broken or untrusted file offers nothing:
 * completion must stay quiet, and the real commands report the problem. Names the CLI would reject
 * are left out.
 */
export function profileNames(env: Env): string[] {
  let data: unknown;
  try {
    const file = configFilePath(env);
    assertTrustedConfig(file);
    data = JSON.parse(readOwnFile(file, configFileRules(file))?.toString('utf8') ?? '');
  } catch {
    return [];
  }
  const profiles = (data as { profiles?: unknown } | null)?.profiles;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) return [];
  return Object.keys(profiles).filter((name) => /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(name));
}
