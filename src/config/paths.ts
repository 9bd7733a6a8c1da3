// Where the config lives. Kept apart from the store so that anything needing only the path (config
// path, shell completion) loads no reading or writing code.
import { isAbsolute, join } from 'node:path';
import { UsageError } from '../base/errors';

type Env = Record<string, string | undefined>;

/**
 * $BOOKING_CONFIG_DIR/config.json when set (non-empty), else ${XDG_CONFIG_HOME:-$HOME/.config}/booking-cli/config.json.
 * A relative XDG_CONFIG_HOME is ignored, as the XDG spec says, and a HOME that is empty or relative
 * gives way to the account's home folder: either would put the key in whatever folder the run is in.
 */
export function configFilePath(env: Env): string {
  if (env.BOOKING_CONFIG_DIR) return join(env.BOOKING_CONFIG_DIR, 'config.json');
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && isAbsolute(xdg) ? xdg : join(homeFolder(env), '.config');
  return join(base, 'booking-cli', 'config.json');
}

function homeFolder(env: Env): string {
  if (env.HOME && isAbsolute(env.HOME)) return env.HOME;
  // node:os only here: loading it is start-up time that almost every run can skip.
  let home: string | undefined;
  try {
    home = process.getBuiltinModule('node:os').userInfo().homedir;
  } catch {}
  if (home && isAbsolute(home)) return home;
  throw new UsageError(
    'no home folder to keep the config in: HOME is unset, empty or relative, and the account has none; set HOME, or BOOKING_CONFIG_DIR to a folder for it.',
  );
}
