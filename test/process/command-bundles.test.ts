// Each command's own bundle (dist/cli-bookings-get.cjs…, scripts/bundle/command-bundles.mjs) behaves
// as the whole program's dist/cli.cjs for the command lines bin/booking.js sends to it: its help, an
// unknown option (and the suggestion) — compared byte for byte, exit code included, over the whole
// command tree. And bin/booking.js sends a command's runs to its bundle, and the rest to the whole.
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Script } from 'node:vm';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { wholeProgram } from '../../src/command-facts';
import { testIO } from '../../src/output/io';
import type { MainDeps } from '../../src/main';
import { ROOT, runCli } from '../helpers/cli';

type Main = (argv: string[], deps: MainDeps) => Promise<number>;

const DIST = join(ROOT, 'dist');
const { bundles } = JSON.parse(readFileSync(join(DIST, 'command-facts.json'), 'utf8')) as { bundles: string[] };
const home = mkdtempSync(join(tmpdir(), 'booking-bundles-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

/** A bundle's main(), loaded as bin/booking.js loads it (without a code cache). */
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

/** The command lines bin/booking.js sends to the bundle of `command` that run nothing but the program's own code. */
function linesOf(command: string): string[][] {
  const words = command.split(' ');
  return [
    [...words, '--help'],
    [...words, '--no-such-option'],
  ];
}

describe('command bundles', () => {
  it('every command of a group, and every top-level command of none, has one (not the hidden __complete)', () => {
    const expected = program.commands
      .filter((c) => c.name() !== 'help' && c.name() !== '__complete')
      .flatMap((c) => (c.commands.length > 0 ? c.commands.map((sub) => `${c.name()} ${sub.name()}`) : [c.name()]));
    expect(bundles).toEqual(expected);
  });

  for (const command of bundles) {
    it(`${command}: its bundle answers as the whole program`, async () => {
      const own = loadMain(`cli-${command.replace(' ', '-')}.cjs`);
      for (const argv of linesOf(command)) {
        const [mine, theirs] = [await run(own, argv), await run(whole, argv)];
        expect(mine, `booking ${argv.join(' ')}`).toEqual(theirs);
        expect(theirs.out + theirs.err, `booking ${argv.join(' ')} printed something`).not.toBe('');
      }
    });
  }

  it("bin/booking.js runs a command from its own bundle, and anything else from the whole program's", async () => {
    // A copy of the install without the bundles of `version` and `config path`: those two then fail
    // on them, while `--help` (no command word), `help version` and `config --help` (a group alone)
    // run the whole program's.
    const install = mkdtempSync(join(tmpdir(), 'booking-install-'));
    try {
      for (const part of ['bin', 'dist', 'package.json']) cpSync(join(ROOT, part), join(install, part), { recursive: true });
      for (const file of ['cli-version.cjs', 'cli-config-path.cjs']) rmSync(join(install, 'dist', file));
      const bin = join(install, 'bin', 'booking.js');
      for (const [argv, file] of [
        [['version'], 'cli-version.cjs'],
        [['--profile', 'x', 'config', 'path'], 'cli-config-path.cjs'],
      ] as const) {
        const r = await runCli([...argv], { bin });
        expect(r.code, argv.join(' ')).toBe(1);
        expect(r.stderr).toMatch(new RegExp(`^error: booking is not built: .*${file.replace('.', '\\.')} is missing`));
      }
      expect((await runCli(['--help'], { bin })).code).toBe(0);
      const help = await runCli(['help', 'version'], { bin });
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('booking version');
      const group = await runCli(['config', '--help'], { bin });
      expect(group.code).toBe(0);
      expect(group.stdout).toMatch(/^Usage: booking config /);
      expect(group.stdout).toMatch(/^ {2}path\b/m);
    } finally {
      rmSync(install, { recursive: true, force: true });
    }
  });
});
