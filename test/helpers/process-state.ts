// What another process is doing, read from Linux's /proc: for tests that wait on it.
import { readdirSync, readlinkSync } from 'node:fs';

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
