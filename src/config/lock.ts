// A lock file around read-modify-write of the config, so that two booking processes saving at once
// (a login in one shell, a config set in another) both keep their change. conf's atomic rename
// already keeps the file valid; the lock keeps it complete.
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { FailureError } from '../base/errors';

export interface LockTimings {
  /** How long to wait for another process before giving up. */
  waitMs: number;
  /** A lock older than this was left by a process that died mid-write; it is broken. */
  staleMs: number;
}

// A write holds the lock for milliseconds. The wait is shorter than the stale age, so that a lock held
// by a live process is reported (exit 1) rather than broken at the end of the wait: with both at 10 s a
// live writer's lock turned stale just as the wait ran out, and was broken (review s34d, F2). Older
// than 30 s, a lock whose pid is alive is a pid reused by another process, and is broken.
export const LOCK_TIMINGS: LockTimings = { waitMs: 10_000, staleMs: 30_000 };

export async function withFileLock<T>(lockPath: string, fn: () => Promise<T> | T, timings: LockTimings = LOCK_TIMINGS): Promise<T> {
  await acquire(lockPath, timings);
  try {
    return await fn();
  } finally {
    try {
      unlinkSync(lockPath);
    } catch {
      // Already broken as stale by another process: nothing left to release.
    }
  }
}

async function acquire(lockPath: string, { waitMs, staleMs }: LockTimings): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(lockPath, 'wx', 0o600);
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new FailureError(
          `cannot write the config: cannot create ${lockPath}: ${(err as NodeJS.ErrnoException).code ?? String(err)}.`,
        );
      }
    }
    if (isStale(lockPath, staleMs)) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Someone else broke it first.
      }
      continue;
    }
    if (Date.now() >= deadline) {
      throw new FailureError(
        `the config is locked by another booking process (${lockPath}).`,
        'if no other booking is running, remove that file and try again.',
      );
    }
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
  }
}

/** Left by a process that is gone (the pid it holds names none), or older than staleMs. */
function isStale(lockPath: string, staleMs: number): boolean {
  try {
    if (holderIsGone(readFileSync(lockPath, 'utf8'))) return true;
    return Date.now() - statSync(lockPath).mtimeMs > staleMs;
  } catch {
    // Gone since we tried: not stale, just free; the next attempt takes it.
    return false;
  }
}

/**
 * The lock holds its writer's pid: one that names no process (ESRCH) was left by a run that died
 * (killed mid-write, the machine lost power), and waiting out staleMs for it would stall every
 * login and config set in silence. An empty file is a lock being written right now; EPERM is a live
 * process of another user.
 */
function holderIsGone(text: string): boolean {
  const pid = Number(text.trim());
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
