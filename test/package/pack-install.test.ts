// The package as a user installs it: `npm pack` (which builds, in prepack) gives a tarball that
// `npm install -g` puts on a fresh prefix with no install-script warning, and whose `booking` runs.
// Packed from a copy of the sources, so that the build it runs never rewrites the dist/ other tests
// are using; the dependencies come from npm's cache (the registry only when the cache lacks one).
// One pack and one install per run, shared by the tests below.
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { missingKeyringTools, startKeyringSession } from '../../scripts/keyring-session.mjs';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}, input?: string): Promise<Run> {
  // npm's own npm_* variables (set when the suite runs under `npm test`) would steer the child npm.
  const base = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => v !== undefined && !/^npm_/i.test(k))) as Record<
    string,
    string
  >;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...base, ...env }, stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    child.stdin?.end(input);
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const work = mkdtempSync(join(tmpdir(), 'booking-pack-'));
const source = join(work, 'source');
const prefix = join(work, 'prefix');
let packed: Run;
let installed: Run;
let tarball: string;

beforeAll(async () => {
  for (const entry of ['package.json', 'package-lock.json', 'README.md', 'tsconfig.json', 'bin', 'completions', 'scripts', 'src']) {
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

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('npm pack, then npm install -g', () => {
  it('packs the built program (dist/) and not the sources', async () => {
    expect(packed.code, packed.stderr).toBe(0);
    const list = await run('tar', ['-tzf', tarball], work);
    const files = list.stdout.split('\n');
    expect(files).toContain('package/dist/cli.cjs');
    expect(files).toContain('package/bin/booking.js');
    expect(files.some((f) => f.startsWith('package/src/') || f.startsWith('package/test/'))).toBe(false);
  });

  it('installs with no install-script warning', () => {
    expect(installed.code, installed.stderr).toBe(0);
    expect(`${installed.stdout}${installed.stderr}`).not.toMatch(/install[- ]scripts?/i);
  });

  it('runs: booking --version, booking --help, and --jq (jq-wasm found where npm put it)', async () => {
    const bin = join(prefix, 'bin', 'booking');
    const version = await run(bin, ['--version'], work);
    const { version: expected } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(version).toMatchObject({ code: 0, stdout: `${expected}\n` });
    const help = await run(bin, ['--help'], work);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: booking /);
    const jq = await run(bin, ['profiles', '--jq', 'length'], work, {
      BOOKING_CONFIG_DIR: join(work, 'config'),
      XDG_CACHE_HOME: join(work, 'cache'),
    });
    expect(jq.stderr).toMatch(/has no settings/);
    expect([jq.code, jq.stdout]).toEqual([0, '0\n']);
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
