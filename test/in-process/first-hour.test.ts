// What a gh user trips on in the first hour: `booking version`, a suggestion for an option typed
// before its command, a missing argument's usage line, verify's --event help, and what the clone's
// .gitignore keeps out.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process';

const ROOT = join(__dirname, '..', '..');

describe('booking version', () => {
  it('prints what --version prints', async () => {
    const word = await runMain(['version']);
    const flag = await runMain(['--version']);
    expect(word).toMatchObject({ code: 0, stderr: '' });
    expect(word.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(word.stdout).toBe(flag.stdout);
  });

  it('prints text, as gh does: --json is refused (exit 2), not ignored', async () => {
    const r = await runMain(['version', '--json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain("--json does not apply to 'booking version'");
  });
});

describe('an unknown option before the command', () => {
  it("is matched against the command's own options", async () => {
    const r = await runMain(['--limt', '3', 'bookings', 'list']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe("error: unknown option '--limt' (did you mean '--limit'?)\n");
    const inGroup = await runMain(['bookings', '--limt', '3', 'list']);
    expect(inGroup.stderr).toBe("error: unknown option '--limt' (did you mean '--limit'?)\n");
  });

  it("the command's own option before it is told to go after it", async () => {
    const r = await runMain(['--limit', '3', 'bookings', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      "error: option '--limit' belongs to 'bookings list': put it after the command (booking bookings list --limit …)\n",
    );
  });

  it('a global option typo keeps its suggestion, and no command still gets the global ones', async () => {
    expect((await runMain(['--jsn', 'bookings', 'list'])).stderr).toBe("error: unknown option '--jsn' (did you mean '--json'?)\n");
    expect((await runMain(['--limt'])).stderr).toBe("error: unknown option '--limt'\n");
  });
});

describe('a missing argument', () => {
  it('is followed by the usage line of the command', async () => {
    for (const [args, usage] of [
      [['bookings', 'get'], 'usage: booking bookings get [options] <uid>'],
      [['webhook', 'send'], 'usage: booking webhook send [options] <url>'],
    ] as const) {
      const r = await runMain([...args]);
      expect(r).toMatchObject({ code: 2, stdout: '' });
      expect(r.stderr).toMatch(new RegExp(`^error: missing required argument '\\w+'\n${usage.replace(/[[\]]/g, '\\$&')}\n$`));
    }
  });
});

describe('webhook verify --help', () => {
  it('says what --event does in plain words', async () => {
    const r = await runMain(['webhook', 'verify', '--help']);
    expect(r.stdout).not.toContain('one of another');
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('an authentic delivery of another event fails (exit 1');
  });
});

describe('.gitignore', () => {
  it('keeps out saved captures and packed tarballs', () => {
    const lines = readFileSync(join(ROOT, '.gitignore'), 'utf8').split('\n');
    expect(lines).toEqual(expect.arrayContaining(['booking-captures/', '*.tgz']));
  });
});
