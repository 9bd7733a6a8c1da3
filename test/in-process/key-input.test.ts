// Keys and signing secrets as the user gives them: one that is not printable ASCII is a usage error
// (exit 2) where it is given, not a failure of every request later; and a secret on the command line
// (visible in `ps`) draws a warning pointing at the safer ways.
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { expectNoLeaks, expectNoStack, runHere, show, startServer } from '../helpers/hardening-kit';

const BAD_KEYS = ['sk_live_ключ1234', 'sk_live_caf\u00e9', 'sk_live_\u201cquoted\u201d', 'sk_live_\u200bzero'];

afterAll(() => expectNoLeaks('key-input'));

describe('an API key that is not printable ASCII', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = (extra: Record<string, string> = {}) => ({ BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, ...extra });
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server.close();
    cfg.cleanup();
  });

  it.each(BAD_KEYS)('%s: login --no-verify, config set apiKey and BOOKING_API_KEY are exit 2, nothing sent or saved', async (key) => {
    const runs = [
      await runHere(['login', '--with-key', '--no-verify'], { env: env(), stdin: `${key}\n` }),
      await runHere(['login', '--with-key'], { env: env(), stdin: `${key}\n` }),
      await runHere(['config', 'set', 'apiKey', key], { env: env() }),
      await runHere(['whoami'], { env: env({ BOOKING_API_KEY: key }) }),
    ];
    for (const r of runs) {
      expect(r.code, show(r)).toBe(2);
      expect(r.stderr).toMatch(/^error: .*the API key has a character that is not printable ASCII \(U\+[0-9A-F]{4} at position \d+\)/);
      expect(r.stderr).not.toContain(key);
      expectNoStack(r.stderr);
    }
    expect(runs[3]!.stderr).toMatch(/^error: BOOKING_API_KEY: /);
    expect(server.requests).toEqual([]);
    expect(existsSync(join(cfg.dir, 'config.json'))).toBe(false);
  });
});

describe('a webhook signing secret', () => {
  const tmp = tempConfigDir();
  afterAll(() => tmp.cleanup());

  it.each([
    ['--secret', (s: string) => ({ args: ['--secret', s] })],
    [
      '--secret-file',
      (s: string) => (writeFileSync(join(tmp.dir, 's.txt'), `${s}\n`), { args: ['--secret-file', join(tmp.dir, 's.txt')] }),
    ],
    ['BOOKING_WEBHOOK_SECRET', (s: string) => ({ args: [], env: { BOOKING_WEBHOOK_SECRET: s } })],
  ] as const)('not printable ASCII from %s: exit 2 naming the byte', async (from, give) => {
    for (const secret of ['whsec_caf\u00e9', 'whsec_crlf\r', 'whsec_\ttab']) {
      const { args, env } = give(secret) as { args: string[]; env?: Record<string, string> };
      const r = await runHere(['webhook', 'sign', ...args], { stdin: 'body', env });
      expect(r.code, show(r)).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(
          `error: the webhook signing secret from ${from === '--secret-file' ? '.*s\\.txt' : from} has a byte that is not printable ASCII \\(0x[0-9a-f]{2} at byte \\d+\\)`,
        ),
      );
    }
  });

  it('--secret on the command line: a warning (kept by -q) naming --secret-file, BOOKING_WEBHOOK_SECRET and the prompt', async () => {
    for (const args of [
      ['webhook', 'sign', '--secret', 's3cret'],
      ['-q', 'webhook', 'sign', '--secret', 's3cret'],
    ]) {
      const r = await runHere(args, { stdin: 'body' });
      expect(r.code, show(r)).toBe(0);
      expect(r.stderr).toMatch(/^warning: --secret on the command line can be read by other users of this machine \(ps\)/);
      expect(r.stderr).toContain('--secret-file');
      expect(r.stderr).toContain('BOOKING_WEBHOOK_SECRET');
      expect(r.stderr).toContain('asked');
    }
  });

  it('--secret-file and BOOKING_WEBHOOK_SECRET: no warning', async () => {
    writeFileSync(join(tmp.dir, 'ok.txt'), 's3cret\n');
    const file = await runHere(['webhook', 'sign', '--secret-file', join(tmp.dir, 'ok.txt')], { stdin: 'body' });
    const env = await runHere(['webhook', 'sign'], { stdin: 'body', env: { BOOKING_WEBHOOK_SECRET: 's3cret' } });
    expect(file).toMatchObject({ code: 0, stderr: '' });
    expect(env).toMatchObject({ code: 0, stderr: '', stdout: file.stdout });
  });
});
