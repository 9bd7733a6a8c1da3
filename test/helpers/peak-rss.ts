// A CLI run under GNU time: its exit code, its peak RSS (KiB) and stderr, stdout to a file. For the
// memory bounds (test/hardening/big-body-memory.test.ts, watch-bounds.test.ts).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { BIN, cleanEnv } from './cli';

export const HAS_GNU_TIME = existsSync('/usr/bin/time');

/** The run's peak RSS in KiB and exit code, stdout to the file `out`. */
export function peakOf(
  args: string[],
  env: Record<string, string>,
  out: string,
): Promise<{ code: number | null; kib: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      '/usr/bin/time',
      ['-f', 'peak-kib=%M', '-o', `${out}.rss`, 'sh', '-c', `exec "$0" "$@" > "${out}"`, process.execPath, BIN, ...args],
      {
        env: cleanEnv(env),
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => void (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, kib: Number(/peak-kib=(\d+)/.exec(readFileSync(`${out}.rss`, 'utf8'))?.[1]), stderr }));
  });
}
