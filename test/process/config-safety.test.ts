// The config file holds the key: it must be private (file 0600, folder 0700) however it came to be
// written, a file booking cannot read is reported with its path and never written over, and
// processes saving at the same moment leave it whole. Login and whoami never print the key.
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { KEY, expectNoLeaks, expectNoStack, run, runHere, startServer, show } from '../helpers/hardening-kit';

const mode = (path: string) => statSync(path).mode & 0o777;

describe('the config file', () => {
  let server: FaultServer;
  let tmp: ReturnType<typeof tempConfigDir>;
  let dir: string;
  let file: string;
  /** Only the config dir: base URL and key come from the file (or the command) itself. */
  const env = () => ({ BOOKING_CONFIG_DIR: dir });
  beforeAll(async () => {
    server = await startServer();
  });
  beforeEach(() => {
    tmp = tempConfigDir();
    dir = join(tmp.dir, 'nested', 'booking'); // not there yet: booking makes it
    file = join(dir, 'config.json');
  });
  afterEach(() => tmp.cleanup());
  afterAll(async () => {
    await server.close();
    expectNoLeaks('config-safety');
  });

  describe('is private', () => {
    it('config set creates the folder 0700 and the file 0600', async () => {
      const r = await runHere(['config', 'set', 'baseUrl', server.url], { env: env() });
      expect(r.code, show(r)).toBe(0);
      expect(mode(dir)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
    });

    it('login --with-key: 0600/0700, the key saved and never echoed; whoami masks it', async () => {
      const r = await runHere(['login', '--base-url', server.url, '--with-key'], { env: env(), stdin: `${KEY}\n` });
      expect(r.code, show(r)).toBe(0);
      expect(mode(dir)).toBe(0o700);
      expect(mode(file)).toBe(0o600);
      expect(readFileSync(file, 'utf8')).toContain(KEY);
      const who = await runHere(['whoami'], { env: env() });
      expect(who.code, show(who)).toBe(0);
      expect(who.stdout + who.stderr).not.toContain(KEY);
      const profiles = await runHere(['profiles'], { env: env() });
      expect(profiles.stdout).toContain(`****${KEY.slice(-4)}`);
      expect(profiles.stdout).not.toContain(KEY);
      const list = await runHere(['config', 'list'], { env: env() });
      expect(list.code, show(list)).toBe(0);
    });

    it('a file and folder made too open by hand are narrowed on the next write', async () => {
      mkdirSync(dir, { recursive: true, mode: 0o755 });
      chmodSync(dir, 0o755);
      writeFileSync(file, `{"profiles":{"default":{"baseUrl":"${server.url}"}}}`, { mode: 0o644 });
      chmodSync(file, 0o644);
      const r = await runHere(['config', 'set', 'apiKey', KEY], { env: env() });
      expect(r.code, show(r)).toBe(0);
      expect(mode(file)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);
    });

    it('a folder made read-only by hand (0500) is never made writable: the write fails, said (root, whom modes do not stop, writes)', async () => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, `{"profiles":{"default":{"baseUrl":"${server.url}"}}}`, { mode: 0o600 });
      chmodSync(dir, 0o500);
      try {
        const r = await runHere(['config', 'set', 'tz', 'UTC'], { env: env() });
        expect(mode(dir)).toBe(0o500);
        if (process.getuid?.() === 0) expect(r.code, show(r)).toBe(0);
        else {
          expect(r.code, show(r)).toBe(1);
          expect(r.stderr).toContain('cannot write the config');
        }
      } finally {
        chmodSync(dir, 0o700);
      }
    });

    it('a config.json made read-only by hand (0400) stays so: the write fails, said, the file byte for byte as it was', async () => {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const before = `{"profiles":{"default":{"baseUrl":"${server.url}"}}}`;
      writeFileSync(file, before, { mode: 0o600 });
      chmodSync(file, 0o400);
      try {
        const r = await runHere(['config', 'set', 'tz', 'UTC'], { env: env() });
        expect(r.code, show(r)).toBe(1);
        expect(r.stderr).toMatch(
          /cannot write the config at .*config\.json: it is read-only \(mode 0400\); it is left as it is\.\n.*chmod u\+w/,
        );
        expect(mode(file)).toBe(0o400);
        expect(readFileSync(file, 'utf8')).toBe(before);
      } finally {
        chmodSync(file, 0o600);
      }
    });
  });

  it("a config folder that cannot be made (under /proc/self): exit 1 at once, naming it (node's recursive mkdir spun there for ever)", async () => {
    // A process (a regression spins at 100% CPU, deaf to all but SIGKILL). One command: every write
    // of the config (config set, login, logout) makes its folder in src/config/write.ts.
    const r = await run(['config', 'set', 'tz', 'UTC'], {
      env: { BOOKING_CONFIG_DIR: '/proc/self/a/b', BOOKING_KEY_STORE: 'file' },
      timeoutMs: 10_000,
    });
    expect(r.code, show(r)).toBe(1);
    expect(r.stderr).toContain('cannot write the config at /proc/self/a/b');
    expectNoStack(r.stderr);
  });

  it('a blank file (made by `touch` or `: >`) is an empty config: login saves into it, commands read it', async () => {
    for (const blank of ['', '\n  \n', '\ufeff']) {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, blank, { mode: 0o600 });
      const empty = await runHere(['config', 'list'], { env: env() });
      expect(empty.code, show(empty)).toBe(0);
      const login = await runHere(['login', '--base-url', server.url, '--with-key'], { env: env(), stdin: `${KEY}\n` });
      expect(login.code, show(login)).toBe(0);
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ profiles: { default: { baseUrl: server.url, apiKey: KEY } } });
      const who = await runHere(['whoami'], { env: env() });
      expect(who.code, show(who)).toBe(0);
    }
  });

  describe('a file booking cannot trust is reported with its path and left exactly as it was', () => {
    const broken: [string, string][] = [
      ['not JSON', 'baseUrl = https://example.com\n'],
      ['JSON cut short', `{"profiles":{"default":{"baseUrl":"https://x.example","apiKey":"${KEY}`],
      ['a JSON array', '[{"baseUrl":"https://x.example"}]\n'],
      ['profiles not an object', '{"profiles":"default"}\n'],
      ['a key that is not a string', '{"profiles":{"default":{"apiKey":12345}}}\n'],
    ];
    const commands: [string, string[], string?][] = [
      ['config set', ['config', 'set', 'baseUrl', 'https://y.example']],
      ['config unset', ['config', 'unset', 'apiKey']],
      ['login', ['login', '--base-url', 'https://y.example', '--with-key', '--no-verify'], `${KEY}\n`],
      ['logout', ['logout']],
      ['config list', ['config', 'list']],
      ['config get', ['config', 'get', 'baseUrl']],
      ['bookings list', ['bookings', 'list']],
    ];

    it.each(broken)('%s', async (_what, text) => {
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      writeFileSync(file, text, { mode: 0o600 });
      const before = readFileSync(file);
      for (const [name, args, stdin] of commands) {
        const r = await runHere(args, { env: env(), stdin });
        expect(r.code, name).toBe(2);
        expect(r.stdout, name).toBe('');
        expect(r.stderr.split('\n')[0], name).toContain(file);
        expectNoStack(r.stderr);
        expect(readFileSync(file).equals(before), `${name} left the file as it was`).toBe(true);
      }
      expect(existsSync(`${file}.lock`)).toBe(false);
      // config path still answers: that is when the user needs it most.
      const path = await runHere(['config', 'path'], { env: env() });
      expect(path.code, show(path)).toBe(0);
      expect(path.stdout).toBe(`${file}\n`);
    });
  });

  // Three writers, not six (each is a process start, ~0.28 s of CPU): with the lock taken out of
  // updateConfigFile, two or three lose a change 10 times in 10, as six did.
  it('three processes saving at once leave valid JSON with every change', async () => {
    const writers = Array.from({ length: 3 }, (_, i) =>
      run(['--profile', `p${i}`, 'config', 'set', 'baseUrl', `https://h${i}.example`], { env: env() }),
    );
    const results = await Promise.all(writers);
    for (const r of results) expect(r.code, r.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(file, 'utf8')) as { profiles: Record<string, { baseUrl: string }> };
    expect(Object.keys(saved.profiles).sort()).toEqual(writers.map((_, i) => `p${i}`));
    expect(saved.profiles.p2!.baseUrl).toBe('https://h2.example');
    expect(mode(file)).toBe(0o600);
  });
});
