// Ctrl-C against a run that is busy: spawn bin/booking.js, wait until `busy` says the run is under way
// (a line printed, a request received), send SIGINT, and time the exit. What the batch tests and the
// command-tree walk (test/process/interrupt-walk.test.ts) measure: exit 130 within a second.
import { spawn } from 'node:child_process';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { BIN, cleanEnv, ROOT } from './cli';

// Preloaded: says on fd 3 when the program's SIGINT handler is in place.
const CTRL_C_READY = join(ROOT, 'test', 'helpers', 'ctrl-c-ready.cjs');

export interface Interrupted {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** From SIGINT to exit, in ms; undefined when the run ended before it was busy (never interrupted). */
  afterSigint?: number;
  stdout: string;
  stderr: string;
}

export interface InterruptOptions {
  env?: Record<string, string | undefined>;
  /**
   * Whether the run is under way, asked on each output chunk and every 20 ms (only once its Ctrl-C
   * handler is in place); `reading`: it has read from endless stdin; `pid`: the process's (to look
   * at it in /proc: how much it has read).
   */
  busy(out: { stdout: string; stderr: string; reading: boolean; pid: number | undefined }): boolean;
  /** Killed (SIGKILL) this long after SIGINT, or after start when never busy. */
  limitMs?: number;
  /** Written to stdin, which is then closed; else stdin is closed at once. */
  stdin?: string;
  /** Written to without end (64 KiB at a time, as the run reads it). */
  endlessStdin?: boolean;
}

export function interruptWhenBusy(args: string[], opts: InterruptOptions): Promise<Interrupted> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-r', CTRL_C_READY, BIN, ...args], {
      cwd: ROOT,
      env: cleanEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
    });
    let ready = false;
    child.stdio[3]!.on('data', () => {
      ready = true;
      poke();
    });
    if (!opts.endlessStdin) child.stdin.end(opts.stdin);
    child.stdin.on('error', () => {});
    if (opts.endlessStdin) {
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const feed = () => {
        while (!child.stdin.destroyed && child.stdin.write(chunk));
      };
      // A drain: the run has read what filled the pipe (so it runs, its Ctrl-C handler in place).
      child.stdin.on('drain', () => {
        out.reading = true;
        feed();
        poke();
      });
      feed();
    }
    const out = { stdout: '', stderr: '', reading: false, pid: child.pid };
    let sentAt: number | undefined;
    const limit = opts.limitMs ?? 10_000;
    let killer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    const poke = () => {
      if (sentAt !== undefined || child.exitCode !== null || !ready) return;
      if (!opts.busy(out)) return;
      sentAt = performance.now();
      child.kill('SIGINT');
      clearTimeout(killer);
      killer = setTimeout(() => child.kill('SIGKILL'), limit);
    };
    const poll = setInterval(poke, 20);
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      // Only the last 64 KiB: a run that prints a lot does not make the test hold it all.
      out.stdout = (out.stdout + c).slice(-65_536);
      poke();
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      out.stderr += c;
      poke();
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearInterval(poll);
      clearTimeout(killer);
      const afterSigint = sentAt === undefined ? undefined : performance.now() - sentAt;
      resolve({ code, signal, afterSigint, stdout: out.stdout, stderr: out.stderr });
    });
  });
}

/**
 * `ms` on an idle machine, stretched by how many runnable processes share each core (at most 4x): for
 * a bound on a run with a heap of hundreds of MB (a 63 MiB page, parsed in pieces), whose garbage
 * collections a machine at load 12 on 2 cores makes several times slower. Bounds on small batches
 * that yield every 20 ms need no stretching.
 */
export function loadBudget(ms: number): number {
  return ms * Math.min(4, Math.max(1, loadavg()[0]! / availableParallelism()));
}
