// A folder and the parents it lacks, made one level at a time. Not node's `recursive: true`: under
// /proc/self (BOOKING_CONFIG_DIR=/proc/self/a/b, `--save-dir /proc/self/x`) it spins for ever at
// 100% CPU, deaf to Ctrl-C; one level at a time fails at once with the folder that cannot be made.
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** Makes `dir` (and each missing parent) with `mode`; a folder that is there already is left as it is. */
export function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    try {
      mkdirSync(at, { mode });
      break;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') break;
      // ENOENT: its parent is missing too (unless this is the root, which always exists).
      if (code !== 'ENOENT' || dirname(at) === at || missing.length > 64) throw err;
      missing.push(at);
    }
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at, { mode });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
}
