// The package as a user installs it: `npm pack` (which builds, in prepack) gives a tarball that
// `npm install -g` puts on a fresh prefix with no install-script warning, and whose `booking` runs.
// Packed from a copy of the sources, so that the build it runs never rewrites the dist/ other tests
// are using; the dependencies come from npm's cache (the registry only when the cache lacks one).
// One pack and one install per run, shared by the tests below. The install holds only what the bundle
// loads from node_modules at run time (jq-wasm; the keyring binding and its platform binary), and
// works with no other package: a sandbox, a login, a table and --jq from the installed files alone
// (--jq once, there: the --version and --help case ran a second one, ~0.3 s of CPU for the same load).
import { type ChildProcess, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync } from 'node:fs';
import type { Command } from 'commander';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { wholeProgram } from '../../src/command-tree';
import { pageName } from '../../src/man';
import { startSandbox } from '../../src/sandbox/server';

/** What may be in the installed package's node_modules: loaded from there at run time, never bundled. */
const RUNTIME = /^(jq-wasm|@napi-rs\/keyring(-[\w-]+)?)$/;
import { missingKeyringTools, startKeyringSession } from '../../scripts/keyring-session.mjs';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Children still running: killed (with their own children) when the tests end, however they end. */
const running = new Set<ChildProcess>();
const killGroup = (child: ChildProcess) => {
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // Already gone.
  }
};

/**
 * One npm command, in a process group of its own, ended after `timeoutMs`: an `npm install` that
 * waits on an unreachable registry must not outlive the test (nor keep the hook waiting forever).
 */
function run(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
  input?: string,
  timeoutMs = 120_000,
): Promise<Run> {
  // npm's own npm_* variables (set when the suite runs under `npm test`) would steer the child npm.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^npm_/i.test(k))) as Record<
    string,
    string
  >;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...base, ...env },
      stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdin?.end(input);
    running.add(child);
    let stdout = '';
    let stderr = '';
    const timer = setTimeout(() => {
      stderr += `\n(killed after ${timeoutMs / 1000} s)`;
      killGroup(child);
    }, timeoutMs);
    child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      running.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

const work = mkdtempSync(join(tmpdir(), 'booking-pack-'));
const source = join(work, 'source');
const prefix = join(work, 'prefix');
let packed: Run;
let installed: Run;
let tarball: string;

beforeAll(async () => {
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'LICENSE', 'tsconfig.json', 'bin', 'docs', 'scripts', 'src']) {
    if (existsSync(join(ROOT, entry))) cpSync(join(ROOT, entry), join(source, entry), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(source, 'node_modules'), 'dir');
  packed = await run('npm', ['pack', '--pack-destination', work], source);
  tarball = join(work, readdirSync(work).find((f) => f.endsWith('.tgz')) ?? 'missing.tgz');
  // Offline from npm's cache (no registry round trip); the registry only if the cache lacks a package.
  const install = (mode: string) => run('npm', ['install', '-g', '--prefix', prefix, mode, '--no-audit', '--no-fund', tarball], work);
  installed = await install('--offline');
  if (installed.code !== 0 && /ENOTCACHED/.test(installed.stderr)) installed = await install('--prefer-offline');
}, 300_000);

afterAll(() => {
  // A hook that timed out leaves its npm running: ended here, with the children it started.
  for (const child of running) killGroup(child);
  rmSync(work, { recursive: true, force: true });
});

describe('npm pack, then npm install -g', () => {
  it('packs the built program (dist/) and not the sources', async () => {
    expect(packed.code, packed.stderr).toBe(0);
    const list = await run('tar', ['-tzf', tarball], work);
    const files = list.stdout.split('\n');
    expect(files).toContain('package/dist/cli.cjs');
    expect(files).toContain('package/bin/booking.js');
    // Written by the build (prepack) from the command tree, not committed.
    expect(files).toContain('package/completions/booking.bash');
    expect(files).toContain('package/man/booking-bookings-get.1');
    expect(files.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
  });

  it('installs with no install-script warning', () => {
    expect(installed.code, installed.stderr).toBe(0);
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/install[- ]scripts?/i);
  });

  // --jq from the installed files (jq-wasm found where npm put it) is run in the sandbox case below.
  it('runs: booking --version and booking --help', async () => {
    const bin = join(prefix, 'bin', 'booking');
    const version = await run(bin, ['--version'], work);
    const { version: expected } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatchObject({ code: 0, stdout: `${expected}\n` });
    const help = await run(bin, ['--help'], work);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: booking /);
  });

  const installedDir = () => join(prefix, 'lib', 'node_modules', 'booking-cli');

  it('installs only the runtime dependencies, none of what the bundle holds', () => {
    const modules = join(installedDir(), 'node_modules');
    const names = existsSync(modules)
      ? readdirSync(modules)
          .filter((n) => !n.startsWith('.'))
          .flatMap((n) => (n.startsWith('@') ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : [n]))
      : [];
    expect(names.length).toBeLessThanOrEqual(4);
    expect(
      names.filter((n) => !RUNTIME.test(n)),
      names.join(', '),
    ).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(pkg.dependencies).filter((n) => !RUNTIME.test(n))).toEqual([]);
  });

  it('installs in at most 9 MB, its dependencies included', () => {
    const bytes = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce((sum, e) => {
        const path = join(dir, e.name);
        return sum + (e.isDirectory() ? bytes(path) : e.isFile() ? statSync(path).size : 0);
      }, 0);
    expect(bytes(installedDir())).toBeLessThanOrEqual(9 * 1024 * 1024);
  });

  it('works from its own files: a sandbox, login, a table, --jq, config', async () => {
    const bin = join(prefix, 'bin', 'booking');
    const sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 5 });
    try {
      const env = { BOOKING_CONFIG_DIR: join(work, 'config-run'), XDG_CACHE_HOME: join(work, 'cache'), BOOKING_KEY_STORE: 'file' };
      // BOOKING_KEY_STORE=file: the key goes to the config file, whatever keyring the machine has.
      const loggedIn = await run('sh', ['-c', `echo ${sb.apiKey} | "${bin}" login --base-url ${sb.url} --with-key`], work, env);
      expect(loggedIn.code, loggedIn.stderr).toBe(0);
      const table = await run(bin, ['bookings', 'list', '-L', '3', '-o', 'table'], work, env);
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toMatch(/^UID +TITLE +STATUS/);
      // jq-wasm, loaded from the installed package's node_modules.
      const jq = await run(bin, ['bookings', 'list', '-L', '2', '--jq', '.[].uid'], work, env);
      expect([jq.code, jq.stdout.split('\n').filter(Boolean).length]).toEqual([0, 2]);
      const config = await run(bin, ['config', 'list', '-o', 'json'], work, env);
      expect(config.code, config.stderr).toBe(0);
    } finally {
      await sb.close();
    }
  }, 60_000);

  it('ships the LICENSE, the docs the README links to, and where the project lives', () => {
    const dir = installedDir();
    expect(readFileSync(join(dir, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) 2026 booking contributors\n/);
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    const links = [...readme.matchAll(/\]\(((?!https?:|#)[^)#]+)(#[^)]*)?\)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(5);
    expect(links.filter((l) => !existsSync(join(dir, l)))).toEqual([]);
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, unknown>;
    for (const field of ['repository', 'bugs', 'homepage', 'keywords', 'license']) expect(pkg[field], field).toBeTruthy();
  });

  it('installs a man page for the program and for every command, groups and leaves', async () => {
    const leaves: Command[] = [];
    const walk = (cmd: Command) => {
      const subs = cmd.commands.filter((c) => !(c as unknown as { _hidden?: boolean })._hidden && c.name() !== 'help');
      if (subs.length === 0) leaves.push(cmd);
      for (const sub of subs) walk(sub);
    };
    const program = await wholeProgram();
    walk(program);
    expect(leaves.length).toBeGreaterThan(15);
    const man1 = join(prefix, 'share', 'man', 'man1');
    const missing = [program, ...leaves].map((c) => `${pageName(c)}.1`).filter((page) => !existsSync(join(man1, page)));
    expect(missing).toEqual([]);
    const page = readFileSync(join(man1, 'booking-bookings-list.1'), 'utf8');
    expect(page).toMatch(/^\.TH BOOKING\\-BOOKINGS\\-LIST 1 /);
    expect(page).toContain('.SH EXAMPLES');
  });

  it('login keeps the key in the OS keyring when one answers, and in the file with a warning when none does', async () => {
    const bin = join(prefix, 'bin', 'booking');
    const key = 'sk_test_installed_2468';
    const cases: [string, Record<string, string>][] = [['none', { DBUS_SESSION_BUS_ADDRESS: '' }]];
    const session = missingKeyringTools().length === 0 ? await startKeyringSession() : undefined;
    if (session) cases.push(['keyring', { DBUS_SESSION_BUS_ADDRESS: session.bus, BOOKING_KEYRING_TIMEOUT: '30' }]);
    try {
      for (const [name, extra] of cases) {
        const env = { BOOKING_CONFIG_DIR: join(work, `config-${name}`), XDG_CACHE_HOME: join(work, 'cache'), ...extra };
        const login = await run(
          bin,
          ['login', '--base-url', 'https://api.example.com', '--with-key', '--no-verify'],
          work,
          env,
          `${key}\n`,
        );
        expect(login.code, login.stderr).toBe(0);
        const file = readFileSync(join(work, `config-${name}`, 'config.json'), 'utf8');
        if (name === 'keyring') {
          expect(login.stderr).toContain('in the OS keyring');
          expect(file).not.toContain(key);
        } else {
          expect(login.stderr).toMatch(/^warning: no OS keyring \(no D-Bus session/);
          expect(file).toContain(key);
        }
        expect(await run(bin, ['auth', 'token'], work, env)).toMatchObject({ code: 0, stdout: `${key}\n` });
      }
    } finally {
      session?.stop();
    }
  }, 120_000);
});
