// A config folder or file that another local user owns or can write is never used: as that user
// could plant a base URL that receives the key, or own the file the key is saved into. Nor a
// symlinked config.json. Each stops with exit 2 naming the path and the fix, before any request.
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { NO_OTHER_USER, otherUser } from '../helpers/other-user';
import { KEY, expectNoLeaks, expectNoStack, run, runHere, show, startServer } from '../helpers/hardening-kit';
import { skipNote } from '../helpers/skip';

const intruder = otherUser();

describe('a config booking cannot trust', () => {
  let server: FaultServer;
  let tmp: ReturnType<typeof tempConfigDir>;
  let dir: string;
  let file: string;
  const env = () => ({ BOOKING_CONFIG_DIR: dir });
  /** What a planted config says: the attacker's base URL (here the recording server). */
  const planted = () => `{"profiles":{"default":{"baseUrl":"${server.url}"}}}\n`;
  const commands = (): [string, string[], string?][] => [
    ['login --with-key', ['login', '--with-key'], `${KEY}\n`],
    ['config set apiKey', ['config', 'set', 'apiKey', KEY]],
    ['whoami', ['whoami'], undefined],
    ['bookings list', ['bookings', 'list']],
  ];

  beforeAll(async () => {
    server = await startServer();
  });
  beforeEach(() => {
    tmp = tempConfigDir();
    dir = join(tmp.dir, 'booking');
    file = join(dir, 'config.json');
    mkdirSync(dir, { mode: 0o700 });
    server.requests.length = 0;
  });
  afterEach(() => tmp.cleanup());
  afterAll(async () => {
    await server.close();
    expectNoLeaks('trust-config');
  });

  /** Every command: exit 2, the path and `fix` in what it says, nothing sent, the file unchanged. */
  async function expectRefused(path: string, fix: RegExp, runner: typeof run = runHere, only?: string[]): Promise<void> {
    const before = lstatSync(file, { throwIfNoEntry: false }) ? readFileSync(file) : undefined;
    for (const [name, args, stdin] of commands().filter(([name]) => !only || only.includes(name))) {
      const r = await runner(args, { env: { ...env(), BOOKING_API_KEY: name === 'whoami' ? KEY : '' }, stdin });
      expect(r.code, `${name}: ${show(r)}`).toBe(2);
      expect(r.stdout, name).toBe('');
      expect(r.stderr.split('\n')[0], name).toContain(path);
      expect(r.stderr, name).toMatch(fix);
      expect(r.stderr.trimEnd().split('\n').length, name).toBeLessThanOrEqual(2);
      expectNoStack(r.stderr);
      if (before) expect(readFileSync(file).equals(before), `${name} left the file as it was`).toBe(true);
    }
    expect(server.requests, 'no request reached the planted base URL').toEqual([]);
  }

  it('a folder others can write (0777): exit 2 with chmod 700', async () => {
    writeFileSync(file, planted(), { mode: 0o600 });
    chmodSync(dir, 0o777);
    await expectRefused(dir, new RegExp(`chmod 700 ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
  });

  it('a file others can write (0666): exit 2 with chmod 600', async () => {
    writeFileSync(file, planted());
    chmodSync(file, 0o666);
    await expectRefused(file, /chmod 600 /);
  });

  it('a symlinked config.json: refused, the file it points to untouched', async () => {
    const target = join(tmp.dir, 'elsewhere.json');
    writeFileSync(target, planted(), { mode: 0o600 });
    symlinkSync(target, file);
    const before = readFileSync(target);
    await expectRefused(file, /symlink/);
    expect(readFileSync(target).equals(before)).toBe(true);
  });

  it('a shared folder such as /tmp: refused, pointing at a folder of your own', async () => {
    const r = await runHere(['config', 'set', 'baseUrl', server.url], { env: { BOOKING_CONFIG_DIR: '/tmp' } });
    expect(r.code, show(r)).toBe(2);
    expect(r.stderr).toContain('/tmp');
    expect(r.stderr).toContain('BOOKING_CONFIG_DIR');
    expect(lstatSync('/tmp/config.json', { throwIfNoEntry: false })).toBeUndefined();
  });

  it('a private folder and file (0700/0600, or 0755/0644) are used as before', async () => {
    writeFileSync(file, planted(), { mode: 0o644 });
    chmodSync(dir, 0o755);
    const r = await runHere(['whoami'], { env: { ...env(), BOOKING_API_KEY: KEY } });
    expect(r.code, show(r)).toBe(0);
    expect(server.requests.length).toBe(1);
  });

  // Ownership by another user is checked with real processes (the rest runs in this one), by one command
  // that writes the file and one that reads it: all four load it through src/config/store.ts (a write
  // reads it first), which the cases above show for each of them; two processes a case, not four.
  const writeAndRead = ['login --with-key', 'bookings list'];
  describe.skipIf(!intruder)(skipNote('owned by another local user', intruder ? undefined : NO_OTHER_USER), () => {
    it("another user's folder (as root, the key would be left in their file): exit 2, their file unchanged", async () => {
      writeFileSync(file, planted(), { mode: 0o600 });
      chownSync(file, intruder!.uid, intruder!.gid);
      chownSync(dir, intruder!.uid, intruder!.gid);
      await expectRefused(dir, /BOOKING_CONFIG_DIR/, run, writeAndRead);
      expect(statSync(file).uid).toBe(intruder!.uid);
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    });

    it("another user's file in my folder: exit 2", async () => {
      writeFileSync(file, planted(), { mode: 0o644 });
      chownSync(file, intruder!.uid, intruder!.gid);
      await expectRefused(file, /another user/, run, writeAndRead);
      expect(readFileSync(file, 'utf8')).not.toContain(KEY);
    });
  });
});
