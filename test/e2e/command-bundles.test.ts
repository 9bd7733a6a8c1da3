// Each top-level command's own bundle (dist/cli-<name>.cjs, scripts/bundle/command-bundles.mjs)
// behaves as the whole program's dist/cli.cjs for every command line bin/booking.js sends to it:
// help, a bare group, a typo'd subcommand, an unknown option — compared byte for byte, exit code
// included, over the whole command tree. And bin/booking.js sends a command's runs to its bundle.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeProgram } from '../../src/command-facts';
import { testIO } from '../../src/io';
import type { MainDeps } from '../../src/main';
import { ROOT, runCli } from '../helpers/cli';

type Main = (argv: string[], deps: MainDeps) => Promise<number>;

const DIST = join(ROOT, 'dist');
const { bundles } = JSON.parse(readFileSync(join(DIST, 'command-facts.json'), 'utf8')) as { bundles: string[] };
const home = mkdtempSync(join(tmpdir(), 'booking-bundles-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A bundle's main(), loaded as bin/code-cache.js loads it (without a code cache). */
function loadMain(file: string): Main {
  const path = join(DIST, file);
  const module = { exports: {} as { main: Main } };
  const wrapper = new Script(readFileSync(path, 'latin1'), { filename: path }).runInThisContext();
  wrapper(module.exports, createRequire(path), module, path, dirname(path), { url: pathToFileURL(path).href });
  return module.exports.main;
}

const whole = loadMain('cli.cjs');
const program: Command = await wholeProgram();

/** Runs argv as bin/booking.js would with that bundle: the same first two command words. */
async function run(main: Main, argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = testIO();
  const words = argv.slice(0, 2).filter((w) => /^[a-z][a-z0-9-]{0,31}$/.test(w));
  const env = { HOME: home, BOOKING_CONFIG_DIR: join(home, 'config'), NO_COLOR: '1' };
  const code = await main(argv, { io, env, words, signal: new AbortController().signal });
  return { code, out: io.out(), err: io.err() };
}

/** The command lines bin/booking.js sends to `name`'s bundle that run nothing but the program's own code. */
function linesOf(name: string): string[][] {
  const top = program.commands.find((c) => c.name() === name);
  if (!top) throw new Error(`no top-level command "${name}"`);
  const lines = [
    [name, '--help'],
    [name, '--no-such-option'],
  ];
  if (top.commands.length > 0) lines.push([name], [name, 'no-such-command']);
  for (const sub of top.commands) {
    for (const spelling of [sub.name(), ...sub.aliases()]) lines.push([name, spelling, '--help'], [name, spelling, '--no-such-option']);
  }
  return lines;
}

describe('command bundles', () => {
  it('every top-level command but the hidden __complete has one', () => {
    expect(bundles).toEqual(program.commands.map((c) => c.name()).filter((n) => n !== 'help' && n !== '__complete'));
  });

  for (const name of bundles) {
    it(`${name}: its bundle answers as the whole program`, async () => {
      const own = loadMain(`cli-${name}.cjs`);
      for (const argv of linesOf(name)) {
        const [mine, theirs] = [await run(own, argv), await run(whole, argv)];
        expect(mine, `booking ${argv.join(' ')}`).toEqual(theirs);
        expect(theirs.out + theirs.err, `booking ${argv.join(' ')} printed something`).not.toBe('');
      }
    });
  }

  it("bin/booking.js runs a command from its own bundle, and anything else from the whole program's", async () => {
    // A copy of the install without the version command's bundle: `version` then fails on it, while
    // `--help` (no command word) and `help version` (the whole program's) still run.
    const install = mkdtempSync(join(tmpdir(), 'booking-install-'));
    try {
      for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(install, part), { recursive: true });
      rmSync(join(install, 'dist', 'cli-version.cjs'));
      const bin = join(install, 'bin', 'booking.js');
      const version = await runCli(['version'], { bin });
      expect(version.code).toBe(1);
      expect(version.stderr).toMatch(/^error: booking is not built: .*cli-version\.cjs is missing/);
      expect((await runCli(['--help'], { bin })).code).toBe(0);
      const help = await runCli(['help', 'version'], { bin });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('booking version');
    } finally {
      rmSync(install, { recursive: true, force: true });
    }
  });
});
