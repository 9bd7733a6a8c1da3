// What another process is doing, read from Linux's /proc: for tests that wait on it.
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** Whether process `pid` has `path` open (Linux: /proc/PID/fd). */
export function holdsOpen(pid: number, path: string): boolean {
  try {
    return readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === path;
      } catch {
        return false;
      }
    });
  } catch {
    return false;
  }
}

/**
 * CPU seconds of process `pid` (Linux: /proc/PID/stat): its own (user + system, all threads) and its
 * children's that have ended and been reaped. Ticks are 1/100 s on Linux.
 */
export function cpuSeconds(pid: number | 'self'): { own: number; children: number } {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  const tick = (i: number) => Number(fields[i]) / 100;
  return { own: tick(11) + tick(12), children: tick(13) + tick(14) };
}
