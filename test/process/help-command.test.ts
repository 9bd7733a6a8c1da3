// Help as a user asks for it: `booking help <command> [<sub>]`, unknown names, examples at the end of
// every leaf command's help, the global options listed once.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { wholeProgram as bookingProgram } from '../../src/command-tree';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli } from '../helpers/cli';

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = testIO({ columns: 100 });
  const code = await main(argv, { io, env: {} });
  return { code, out: io.out(), err: io.err() };
}

/** [path] of every visible leaf command. */
function leaves(cmd: Command, path: string[] = []): string[][] {
  const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden: boolean })._hidden);
  if (subs.length === 0) return [path];
  return subs.flatMap((c) => leaves(c, [...path, c.name()]));
}

describe('booking help', () => {
  it('help bookings list shows that leaf, not the group', async () => {
    const r = await run(['help', 'bookings', 'list']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: booking bookings list\|ls/);
    expect(r.out).toContain('--status <status>');
  });

  it('help webhook verify shows that leaf', async () => {
    const r = await run(['help', 'webhook', 'verify']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^Usage: booking webhook verify/);
  });

  it('a group named alone shows its help on stdout with exit 0, as gh does; an unknown subcommand stays exit 2', async () => {
    for (const group of [['bookings'], ['webhook'], ['config'], ['auth']]) {
      const r = await run(group);
      expect(r.code, group.join(' ')).toBe(0);
      expect(r.out).toMatch(new RegExp(`^Usage: booking ${group[0]} \\[options\\] \\[command\\]`));
      expect(r.err).toBe('');
    }
    const typo = await run(['bookings', 'lst']);
    expect(typo.code).toBe(2);
    expect(typo.err).toBe("error: unknown command 'lst' (did you mean one of 'list', 'ls'?)\n");
  });

  it('an unknown command is exit 2, one error line with a suggestion, no help dump', async () => {
    const r = await run(['help', 'bookngs']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err.split('\n')[0]).toBe("error: unknown command 'bookngs' (did you mean 'bookings'?)");
    expect(r.err).not.toContain('Usage:');
    const nope = await run(['help', 'nope']);
    expect(nope.code).toBe(2);
    expect(nope.err).toMatch(/^error: unknown command 'nope'\ncommands: login, logout, whoami, profiles, auth, bookings,/);
    const sub = await run(['help', 'bookings', 'lst']);
    expect(sub.err.split('\n')[0]).toBe("error: unknown command 'lst' for 'booking bookings' (did you mean 'list'?)");
    // A group's own help command, as every group's help offers it: the same answers.
    const group = await run(['bookings', 'help', 'lst']);
    expect([group.code, group.out]).toEqual([2, '']);
    expect(group.err.split('\n')[0]).toBe("error: unknown command 'lst' for 'booking bookings' (did you mean 'list'?)");
    const found = await run(['webhook', 'help', 'verify']);
    expect([found.code, found.out.split('\n')[0]]).toEqual([0, 'Usage: booking webhook verify [options] [file]']);
    const leaf = await run(['help', 'bookings', 'watch', 'list']);
    expect([leaf.code, leaf.err]).toEqual([2, "error: 'booking bookings watch' has no subcommands ('list' given)\n"]);
  });

  it('every leaf command ends its help with 2-4 examples', async () => {
    const paths = leaves(await bookingProgram());
    expect(paths.length).toBeGreaterThan(15);
    for (const path of paths) {
      const r = await run([...path, '--help']);
      expect(r.code, path.join(' ')).toBe(0);
      const m = /\nExamples:\n((?: {2}\S.*\n?)+)$/.exec(r.out);
      expect(m, `${path.join(' ')} has examples at the end`).not.toBeNull();
      const lines = m![1]!.trimEnd().split('\n');
      expect(lines.length, path.join(' ')).toBeGreaterThanOrEqual(2);
      expect(lines.length, path.join(' ')).toBeLessThanOrEqual(4);
      for (const line of lines) expect(line, 'webhook secrets never on the command line').not.toMatch(/--secret\s/);
    }
  });

  it('global options are listed in booking --help only; subcommands name them in one line', async () => {
    const root = await run(['--help']);
    expect(root.out).toContain('--base-url <url>');
    expect(root.out).toContain('--jq <expression>');
    const leaf = await run(['bookings', 'list', '--help']);
    expect(leaf.out).not.toContain('--base-url');
    expect(leaf.out).not.toContain('Global Options');
    expect(leaf.out).toContain('\nglobal options: see booking --help\n');
  });

  it('bookings list --help names the status values', async () => {
    const r = await run(['bookings', 'list', '--help']);
    for (const s of ['pending', 'confirmed', 'cancelled', 'completed']) expect(r.out).toContain(`"${s}"`);
  });

  it('from the installed entry point too (bin/booking.js)', async () => {
    const r = await runCli(['help', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: unknown command 'nope'\n/);
  });

  it('docs/commands.md has a line for every top-level command and group (help and man list the rest)', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'commands.md'), 'utf8');
    const tops = leaves(await bookingProgram()).map((path) => path[0]!);
    for (const name of new Set(tops)) expect(doc, name).toContain(`| \`booking ${name}`);
  });
});

describe('the commands that run until stopped', () => {
  // Each one's exit 0 on SIGINT is proven as a process: watch-sandbox, webhook-cli and
  // sandbox-process in test/e2e. Here: they are the three, and help and README state the one rule.
  it('are watch, listen and sandbox; each --help states the rule, and the README says the same', async () => {
    const { runsUntilStopped, STOPPED_RULE } = await import('../../src/commands/define');
    const program = await bookingProgram();
    const all: string[] = [];
    const walk = (cmd: Command, path: string[]) => {
      if (runsUntilStopped.has(cmd)) all.push(path.join(' '));
      for (const sub of cmd.commands) walk(sub, [...path, sub.name()]);
    };
    walk(program, []);
    expect(all.sort()).toEqual(['bookings watch', 'sandbox', 'webhook listen']);
    for (const path of all) {
      const r = await run([...path.split(' '), '--help']);
      expect(r.out.replace(/\s+/g, ' '), path).toContain(STOPPED_RULE);
    }
    const safety = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(safety.replace(/\s+/g, ' ')).toContain(
      'The commands that run until stopped (`bookings watch`, `webhook listen`, `sandbox`) follow one rule instead: Ctrl-C (or SIGTERM) is how they end, a clean stop with exit 0',
    );
  });
});
