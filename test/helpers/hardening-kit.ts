// Shared by the hardening suite: one API key that must never be printed, CLI runs that count any
// appearance of it (stdout, stderr, the terminal), and checks that output lines are whole.
import { appendFileSync } from 'node:fs';
import { expect } from 'vitest';
import { runCli, runCliTty, type CliOptions, type CliResult } from './cli';
import { startFaultServer, type FaultServer, type FaultServerOptions } from './fault-server';
import { runMain, runMainTty, type InProcessOptions } from './in-process';

/** The key every hardening server expects. Distinctive, so any piece of it in output is a leak. */
export const KEY = 'sk_live_HARDEN_q7Zp3Xv9LmW2';

/** A fault server that expects KEY. */
export function startServer(opts: FaultServerOptions = {}): Promise<FaultServer> {
  return startFaultServer({ apiKey: KEY, ...opts });
}

const tally = { runs: 0, leaks: 0, leaked: [] as string[] };

/** Pieces of the key long enough to be unmistakable (a masked "****LmW2" is not one of them). */
function leaksIn(text: string): number {
  let found = 0;
  for (let i = 0; i + 10 <= KEY.length; i++) if (text.includes(KEY.slice(i, i + 10))) found++;
  return found > 0 ? 1 : 0;
}

function count(args: string[], ...texts: string[]): void {
  tally.runs++;
  const leaks = texts.reduce((n, t) => n + leaksIn(t), 0);
  if (leaks > 0) {
    tally.leaks += leaks;
    tally.leaked.push(args.join(' '));
  }
}

/** runCli, and every byte it printed checked for the key. */
export async function run(args: string[], opts: CliOptions = {}): Promise<CliResult> {
  const r = await runCli(args, opts);
  count(args, r.stdout, r.stderr);
  return r;
}

/** runMain (in this process, no spawn), and every byte it printed checked for the key. */
export async function runHere(args: string[], opts: InProcessOptions = {}): Promise<CliResult> {
  const r = await runMain(args, opts);
  count(args, r.stdout, r.stderr);
  return r;
}

/** runMainTty (in this process, on TTY streams), checked for the key. */
export async function runHereTty(args: string[], opts: InProcessOptions = {}) {
  const r = await runMainTty(args, opts);
  count(args, r.output);
  return r;
}

/** runCliTty (stdout and stderr on one pseudo-terminal), checked for the key. */
export async function runTty(args: string[], opts: CliOptions & { columns?: number } = {}) {
  const r = await runCliTty(args, opts);
  count(args, r.output);
  return r;
}

/** For output gathered elsewhere (a spawned process the test drives itself). */
export function countLeaks(args: string[], ...texts: string[]): void {
  count(args, ...texts);
}

/**
 * For afterAll: no run of this file printed the key. With HARDENING_TALLY=<file>, the figures are
 * appended there as one JSON line (how the README's Reliability figures are gathered).
 */
export function expectNoLeaks(file: string): void {
  const out = process.env.HARDENING_TALLY;
  if (out) appendFileSync(out, `${JSON.stringify({ file, runs: tally.runs, leaks: tally.leaks })}\n`);
  const leaked = tally.leaked.splice(0);
  // The next file in this worker (isolate: false shares this module) counts from zero.
  Object.assign(tally, { runs: 0, leaks: 0 });
  expect(leaked, `the key was printed by: ${leaked.join(' | ')}`).toEqual([]);
}

/** What the CLI said, for the message of a failed exit-code assertion. */
export function show(r: { stderr?: string; output?: string }): string {
  return r.stderr ?? r.output ?? '';
}

/** The env of a run against a server: key and base URL from the environment, a throwaway config dir. */
export function envFor(baseUrl: string, configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  return { BOOKING_CONFIG_DIR: configDir, BOOKING_BASE_URL: baseUrl, BOOKING_API_KEY: KEY, ...extra };
}

/** stdout ends at a line break and every line is a JSON object: no half-written record. */
export function expectWholeNdjson(stdout: string): { uid: string }[] {
  if (stdout === '') return [];
  expect(stdout.endsWith('\n'), 'stdout ends with a whole line').toBe(true);
  return stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => JSON.parse(line) as { uid: string });
}

/** stdout ends at a line break and every line has exactly `columns` tab-separated fields. */
export function expectWholeTsv(stdout: string, columns: number): string[][] {
  if (stdout === '') return [];
  expect(stdout.endsWith('\n'), 'stdout ends with a whole line').toBe(true);
  const rows = stdout
    .slice(0, -1)
    .split('\n')
    .map((line) => line.split('\t'));
  for (const row of rows) expect(row).toHaveLength(columns);
  return rows;
}

/** No stack trace and no raw error dump anywhere in what the user saw. */
export function expectNoStack(text: string): void {
  expect(text).not.toMatch(/^\s+at /m);
  expect(text).not.toMatch(/^(\w*Error|Error):/m);
  expect(text).not.toContain('node:internal');
}

/** The cursor stderr tells the user to resume from. */
export function resumeCursor(stderr: string): string {
  const m = /--cursor '?([^'\s]+)'?/.exec(stderr);
  expect(m, `stderr names a cursor to resume from: ${stderr}`).not.toBeNull();
  return m![1]!;
}
