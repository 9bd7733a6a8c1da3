// Where the config lives. Kept apart from the store so that anything needing only the path (config
// path, shell completion) loads no reading or writing code.
import { homedir } from 'node:os';
import { join } from 'node:path';

type Env = Record<string, string | undefined>;

/** $BOOKING_CONFIG_DIR/config.json when set (non-empty), else ${XDG_CONFIG_HOME:-$HOME/.config}/booking-cli/config.json. */
export function configFilePath(env: Env): string {
  if (env.BOOKING_CONFIG_DIR) return join(env.BOOKING_CONFIG_DIR, 'config.json');
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'booking-cli', 'config.json');
}
