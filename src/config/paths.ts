// Where the config lives. Kept apart from the store so that anything needing only the path (config
// path, shell completion) loads no reading or writing code.
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** $BOOKING_CONFIG_DIR/config.json when set (non-empty), else ${XDG_CONFIG_HOME:-$HOME/.config}/booking-cli/config.json. */
export function configFilePath(env: Env): string {
  if (env.BOOKING_CONFIG_DIR) return join(env.BOOKING_CONFIG_DIR, 'config.json');
  // node:os only when HOME is unset: loading it is start-up time that almost every run can skip.
  const base = env.XDG_CONFIG_HOME || join(env.HOME || process.getBuiltinModule('node:os').homedir(), '.config');
  return join(base, 'booking-cli', 'config.json');
}
