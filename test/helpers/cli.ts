// Spawning the built CLI as a user would: `node bin/booking.js …`, piped or on a pseudo-terminal, with
// a throwaway BOOKING_CONFIG_DIR so no test touches a real config.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');
export const BIN = join(ROOT, 'bin', 'booking.js');

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  stdoutBytes: Buffer;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  stdin?: string | Buffer;
  cwd?: string;
  timeoutMs?: number;
  /** Another install's bin/booking.js (a copy of this one, changed by the test). */
  bin?: string;
}

/** An environment without the developer's own booking settings, colour or proxies. */
export function cleanEnv(extra: Record<string, string | undefined> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(BOOKING_|DBUS_SESSION_BUS_ADDRESS$|NO_COLOR$|FORCE_COLOR$|HTTPS?_PROXY$|https?_proxy$|NO_PROXY$|no_proxy$)/.test(k)) continue;
    env[k] = v;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/** Runs the CLI with stdout and stderr piped. */
export function runCli(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], {
      cwd: opts.cwd ?? ROOT,
      env: cleanEnv(opts.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const stdoutBytes = Buffer.concat(out);
      resolvePromise({ code, signal, stdout: stdoutBytes.toString('utf8'), stderr: Buffer.concat(err).toString('utf8'), stdoutBytes });
    });
    child.stdin.on('error', () => {});
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
    else child.stdin.end();
  });
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

export interface TtyOptions extends CliOptions {
  columns?: number;
  /**
   * Typed like a user: each text once the output so far shows its prompt (typed early, the terminal
   * would echo it before the CLI turns echo off). stdin closes after the last one.
   */
  answers?: { after: string; text: string }[];
}

/**
 * Runs the CLI on a pseudo-terminal (util-linux `script`), so stdout, stderr and stdin are all TTYs.
 * The terminal merges stdout and stderr into `output`.
 */
export function runCliTty(args: string[], opts: TtyOptions = {}): Promise<{ code: number | null; output: string }> {
  const cols = opts.columns ?? 120;
  const command = `stty cols ${cols} rows 50 2>/dev/null; exec ${[process.execPath, BIN, ...args].map(shellQuote).join(' ')}`;
  return new Promise((resolvePromise, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: opts.cwd ?? ROOT,
      // No pager unless a test asks for one: less would wait for a key on the pseudo-terminal.
      env: cleanEnv({ TERM: 'xterm-256color', BOOKING_PAGER: '', ...opts.env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const answers = [...(opts.answers ?? [])];
    const onOutput = (c: Buffer) => {
      out.push(c);
      while (answers.length > 0 && Buffer.concat(out).toString('utf8').includes(answers[0]!.after)) {
        child.stdin.write(answers.shift()!.text);
        if (answers.length === 0) child.stdin.end();
      }
    };
    child.stdout.on('data', onOutput);
    child.stderr.on('data', onOutput);
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, output: Buffer.concat(out).toString('utf8').replace(/\r\n/g, '\n') });
    });
    child.stdin.on('error', () => {});
    if (opts.stdin !== undefined) child.stdin.end(opts.stdin);
  });
}

/** A fresh config dir; call the returned cleanup in afterEach/afterAll. */
export function tempConfigDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'booking-test-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
