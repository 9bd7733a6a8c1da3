// Running the CLI in this process: main(argv, {io, env}) with in-memory streams, the same result
// shape as a spawned run (helpers/cli.ts). For what needs no real process (usage errors, output,
// exit codes): a spawn costs ~150 ms of node start-up, this a few ms.
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import type { CliOptions, CliResult } from './cli';
import { cleanEnv } from './cli';

export interface InProcessOptions extends Omit<CliOptions, 'cwd' | 'timeoutMs'> {
  /** stdin, stdout and stderr all on a terminal (default: all piped). */
  tty?: boolean;
  columns?: number;
  signal?: AbortSignal;
}

export async function runMain(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const io = testIO({ tty: opts.tty ?? false, stdin: opts.stdin, columns: opts.columns });
  const code = await main(args, { io, env: cleanEnv(opts.env), signal: opts.signal });
  const stdoutBytes = io.outBytes();
  return { code, signal: null, stdout: stdoutBytes.toString('utf8'), stderr: io.err(), stdoutBytes };
}

/**
 * runMain on a terminal: stdin, stdout and stderr TTYs, no pager, 120 columns unless given; stdout and
 * stderr read as one output, as a pty shows them (runCliTty's shape, without a process start).
 */
export async function runMainTty(args: string[], opts: InProcessOptions = {}): Promise<{ code: number | null; output: string }> {
  const r = await runMain(args, { ...opts, env: { BOOKING_PAGER: '', ...opts.env }, columns: opts.columns ?? 120, tty: true });
  return { code: r.code, output: r.stdout + r.stderr };
}
