// Runs the committed completion scripts in the real shells. Each shell gets one process per batch of
// lines (a driver script beside this file) and answers "<n><TAB><candidate>" lines, which come back
// here as a Map from each line to its candidates.
//
// `booking` resolves to the built CLI through a wrapper on PATH; the config, HOME and working folder
// are throwaway, with two profiles and a few files (one with a ':' in its name) and a folder to complete.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, ROOT, cleanEnv } from './cli';

export type ShellName = 'bash' | 'zsh' | 'fish';

export const COMPLETIONS_DIR = join(ROOT, 'completions');
const BASH_COMPLETION = '/usr/share/bash-completion/bash_completion';
const here = join(ROOT, 'test', 'helpers', 'shells');

/** A file in the sandbox whose name has a ':', which bash treats as a word break. */
export const COLON_FILE = 'payload:v2.json';

/**
 * Whether the shell can run the tests here (bash: with bash-completion, unless told not); the reason
 * when it cannot.
 */
export function shellMissing(shell: ShellName, opts: { bashCompletion?: boolean } = {}): string | undefined {
  const probe = {
    bash: ['bash', ['-c', 'true']],
    zsh: ['zsh', ['-fc', 'zmodload zsh/zpty']],
    fish: ['fish', ['--no-config', '-c', 'true']],
  } as const;
  const [cmd, args] = probe[shell];
  const run = spawnSync(cmd, args, { stdio: 'ignore' });
  if (run.error || run.status !== 0) return `${shell} is not installed (apt-get install -y bash-completion zsh fish)`;
  if (shell === 'bash' && opts.bashCompletion !== false && !existsSync(BASH_COMPLETION))
    return `bash-completion is not installed (${BASH_COMPLETION} is missing)`;
  return undefined;
}

export interface Sandbox {
  env: Record<string, string>;
  cwd: string;
  cleanup(): void;
}

export function makeSandbox(profiles: string[]): Sandbox {
  const root = mkdtempSync(join(tmpdir(), 'booking-completion-'));
  const bin = join(root, 'bin');
  const config = join(root, 'config');
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  for (const dir of [bin, config, home, cwd, join(cwd, 'captures')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(bin, 'booking'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
  chmodSync(join(bin, 'booking'), 0o755);
  writeFileSync(join(config, 'config.json'), JSON.stringify({ profiles: Object.fromEntries(profiles.map((p) => [p, {}])) }));
  writeFileSync(join(cwd, 'payload.json'), '{}\n');
  writeFileSync(join(cwd, 'secret.txt'), 'whsec_test\n');
  writeFileSync(join(cwd, COLON_FILE), '{}\n');
  const env = cleanEnv({
    PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: home,
    XDG_CONFIG_HOME: undefined,
    XDG_DATA_HOME: undefined,
    BOOKING_CONFIG_DIR: config,
    TERM: 'xterm',
  });
  return { env, cwd, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** What the shell offers at the end of each line. */
export function complete(shell: ShellName, lines: string[], box: Sandbox, opts: { bashCompletion?: boolean } = {}): Map<string, string[]> {
  const invocation: Record<ShellName, [string, string[]]> = {
    bash: ['bash', ['--norc', '--noprofile', join(here, 'bash-complete.bash'), join(COMPLETIONS_DIR, 'booking.bash')]],
    zsh: ['zsh', ['-f', join(here, 'zsh-complete.zsh'), COMPLETIONS_DIR]],
    fish: ['fish', ['--no-config', join(here, 'fish-complete.fish'), join(COMPLETIONS_DIR, 'booking.fish')]],
  };
  const [cmd, args] = invocation[shell];
  const env = { ...box.env, BASH_COMPLETION_FILE: opts.bashCompletion === false ? '' : BASH_COMPLETION };
  const run = spawnSync(cmd, [...args, ...lines], { cwd: box.cwd, env, encoding: 'utf8', timeout: 120_000 });
  if (run.error) throw run.error;
  if (run.status !== 0 || run.stderr.trim() !== '') {
    throw new Error(`${shell} driver failed (exit ${run.status}):\n${run.stderr}`);
  }
  const result = new Map<string, string[]>(lines.map((l) => [l, []]));
  for (const row of run.stdout.split('\n')) {
    const tab = row.indexOf('\t');
    if (tab < 0) continue;
    const line = lines[Number(row.slice(0, tab)) - 1]!;
    result.get(line)!.push(normalise(line, row.slice(tab + 1)));
  }
  return result;
}

/** fish answers "--output=json" where the others answer "json"; folders may carry their "/". */
function normalise(line: string, candidate: string): string {
  const last = line.split(' ').at(-1) ?? '';
  const eq = last.indexOf('=');
  const word = eq >= 0 && candidate.startsWith(last.slice(0, eq + 1)) ? candidate.slice(eq + 1) : candidate;
  return word.replace(/\/$/, '');
}
