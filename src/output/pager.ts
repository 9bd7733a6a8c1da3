// A pager for a terminal's output, as git and gh do: BOOKING_PAGER, else PAGER, else `less -FRX`
// when installed (-F: no pager at all for output that fits the screen; -R: colours; -X: the output
// stays on the screen after quitting). --no-pager or an empty BOOKING_PAGER turns it off, and piped
// output is never paged.
//
// Quitting the pager before the output is complete stops the command quietly (exit 0): `stopped` is
// aborted, and what the command was doing ends as if interrupted, but without a word. Ctrl-C ends the
// pager with the command, so that the shell gets its terminal back at once, and the run with 130, also
// when the output was complete and the pager was only showing it. The pager starts with the first
// bytes of output (startPager).
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import type { GlobalOptions } from '../base/globals';
import type { IOStreams, OutStream } from './streams';
import { pagerHasTerminal } from './progress';
import { FailureError, InterruptedError } from '../base/errors';
import { escapeOneLine } from './escape';

/** What the pager needs of a run's context (the command's whole context passes through it unchanged). */
export interface PagerContext {
  io: IOStreams;
  globals: GlobalOptions;
  env: Record<string, string | undefined>;
  signal: AbortSignal;
}

export interface Pager<C extends PagerContext = PagerContext> {
  /** The context to write through: stdout is the pager's input, and the signal includes `stopped`. */
  ctx: C;
  /** Aborted when the user quit the pager before the output was complete. */
  stopped: AbortSignal;
  /** No more output: waits for the user to quit the pager. */
  finish(): Promise<void>;
}

/** The pager command to run, or undefined for none. */
export function pagerCommand(ctx: Pick<PagerContext, 'io' | 'globals' | 'env'>): string | undefined {
  if (!ctx.io.stdoutIsTTY || ctx.globals.noPager) return undefined;
  const own = ctx.env.BOOKING_PAGER;
  if (own !== undefined) return own.trim() === '' || own.trim() === 'cat' ? undefined : own;
  // A dumb terminal (Emacs' shell, an editor's output pane) cannot run a full-screen pager: less
  // warns and waits for RETURN there. Only a pager named for booking itself is used on one.
  if (ctx.env.TERM === 'dumb') return undefined;
  const chosen = ctx.env.PAGER;
  if (chosen !== undefined) return chosen.trim() === '' || chosen.trim() === 'cat' ? undefined : chosen;
  return onPath('less', ctx.env.PATH) ? 'less -FRX' : undefined;
}

function onPath(name: string, path: string | undefined): boolean {
  return (path ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir || '.', name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * The command as the shell runs it: with `exec` when it is one simple command (a plain name first, no
 * operator, no substitution), so that the pager is the child this process signals (dash runs
 * `sh -c 'less -FRX'` as a child of its own, which Ctrl-C's SIGTERM would end while less stays and draws
 * its prompt after the "interrupted" line). Anything else (`LESS=R less`, `less; clear`, a pipeline,
 * `if …`) is run as written.
 */
export function shellCommand(command: string): string {
  const first = /^\s*([A-Za-z0-9_./+-]+)(?:\s|$)/.exec(command)?.[1];
  const simple = first !== undefined && !SHELL_WORDS.has(first) && !/[;&|<>()`$\n\\]/.test(command);
  return simple ? `exec ${command.trimStart()}` : command;
}

// Reserved words and the shell's special builtins: `exec` cannot run them.
const SHELL_WORDS = new Set(
  'if case for while until select function time exec command builtin . : exit return eval cd export set unset readonly shift trap wait break continue'.split(
    ' ',
  ),
);

/**
 * The pager for this run's output, or undefined when there is to be none. It starts with the first
 * bytes of output, not before: while the first answer is awaited the terminal stays the command's
 * (its waiting note shows there), and Ctrl-C before any output leaves no pager screen behind.
 */
export function startPager<C extends PagerContext>(ctx: C): Pager<C> | undefined {
  const command = pagerCommand(ctx);
  if (!command) return undefined;
  const quit = new AbortController();
  let finished = false;
  // The shell's 126 or 127: the pager could not be run at all (not found, not executable).
  let notRun = false;
  // How it ended otherwise: a pager the user quits exits 0; one that fails (PAGER=false) may have
  // shown nothing.
  let ended: { code: number | null; signal: NodeJS.Signals | null } = { code: 0, signal: null };
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  const onFailure = () => finished || quit.abort(new Error('pager closed'));
  const onInterrupt = () => child?.kill('SIGTERM');
  const spawnPager = (): OutStream => {
    try {
      // Through the shell, as git does: PAGER may carry options ("less -S") or be a pipeline.
      child = spawn('/bin/sh', ['-c', shellCommand(command)], { stdio: ['pipe', 'inherit', 'inherit'], env: { LESS: 'FRX', ...ctx.env } });
    } catch {
      // No process to run it in: the output goes to the terminal itself, as without a pager.
      return ctx.io.stdout;
    }
    // The pager has the terminal now: no status line (progress, waiting note) is drawn under it.
    pagerHasTerminal(ctx.io.stderr);
    const proc = child;
    exited = new Promise<void>((resolve) => {
      proc.once('close', (code, signal) => {
        notRun = code === 126 || code === 127;
        ended = { code, signal };
        resolve();
      });
      proc.once('error', () => {
        notRun = true;
        resolve();
      });
    });
    void exited.then(onFailure);
    proc.stdin!.on('error', onFailure);
    ctx.signal.addEventListener('abort', onInterrupt, { once: true });
    return proc.stdin!;
  };
  let target: OutStream | undefined;
  const input: OutStream = {
    write: (chunk) => (target ??= spawnPager()).write(chunk),
    get writableNeedDrain() {
      return target?.writableNeedDrain ?? false;
    },
    once: (event, listener) => target?.once?.(event, listener),
    off: (event, listener) => target?.off?.(event, listener),
  };
  // The pager is one more destination behind the same door: it gets masked, escaped bytes (it shows
  // them on the terminal, so the escaper is on). A pager quit early makes our writes fail with EPIPE:
  // that is `stopped`, not an error. The pager has the terminal: no progress line to fight over it.
  const io = ctx.io.through({ stream: input, isTTY: true, onFailure }, { stderrIsTTY: false, color: ctx.io.color });
  return {
    ctx: { ...ctx, io, signal: AbortSignal.any([ctx.signal, quit.signal]) },
    stopped: quit.signal,
    async finish() {
      finished = true;
      if (!child) return;
      child.stdin!.end();
      await exited;
      ctx.signal.removeEventListener('abort', onInterrupt);
      // Ended by Ctrl-C, less leaves its prompt ("(END)", ":") on the terminal's last line, where the
      // "interrupted" line would land: that line is cleared first.
      if (ctx.signal.aborted && ctx.io.stderrIsTTY) ctx.io.stderr.write('\r\x1b[2K');
      // Ctrl-C ends the run as interrupted (130) whether the output was complete or still coming, as
      // git does; the pager quit by the user (q) is what ends it with 0.
      if (ctx.signal.aborted) throw new InterruptedError();
      // The output went nowhere: never exit 0 for that, as if the user had read it and quit.
      if (notRun && !ctx.signal.aborted)
        throw new FailureError(
          `the pager ${JSON.stringify(escapeOneLine(command, 80))} could not be run, so the output was not shown.`,
          'set BOOKING_PAGER (or PAGER) to a pager that is installed, or use --no-pager.',
        );
      if (ended.code !== 0)
        throw new FailureError(
          `the pager ${JSON.stringify(escapeOneLine(command, 80))} ${ended.code === null ? `was ended by ${ended.signal}` : `exited with status ${ended.code}`}, so the output may not have been shown.`,
          'set BOOKING_PAGER (or PAGER) to a pager that works, or use --no-pager.',
        );
    },
  };
}
