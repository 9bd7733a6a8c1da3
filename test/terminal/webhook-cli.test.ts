// The webhook commands as a user runs them: `node bin/booking.js webhook …`, piped and on a terminal,
// and a listen → send → verify round trip between real processes over 127.0.0.1.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, runCliTty } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { fixture, tempDir } from '../helpers/webhook-kit';

const GH = ["It's a Secret to Everybody", 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'] as const;
const tmp = tempDir({ 'gh.txt': 'Hello, World!', 'gh-lf.txt': 'Hello, World!\n' });
afterAll(() => tmp.cleanup());

describe('sign and verify', () => {
  it("sign prints GitHub's documented signature", async () => {
    const r = await runMain(['webhook', 'sign', tmp.path('gh.txt')], { env: { BOOKING_WEBHOOK_SECRET: GH[0] } });
    expect(r).toMatchObject({ code: 0, stdout: `${GH[1]}\n`, stderr: '' });
  });

  it('verify: 0 authentic, 1 not (with the cause), 2 for a malformed signature', async () => {
    expect((await runMain(['webhook', 'verify', tmp.path('gh.txt'), '--signature', GH[1], '--secret', GH[0]])).code).toBe(0);
    const lf = await runMain(['webhook', 'verify', '--signature', GH[1]], {
      stdin: 'Hello, World!\n',
      env: { BOOKING_WEBHOOK_SECRET: GH[0] },
    });
    expect(lf.code).toBe(1);
    expect(lf.stdout).toBe(
      'not-authentic\t\t14\tthe body matches without its trailing newline (LF): one was added after signing (an editor, echo, a copy)\n',
    );
    const bad = await runMain(['webhook', 'verify', tmp.path('gh.txt'), '--signature', 'sha256=1234', '--secret', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^error: --signature "sha256=1234" is not sha256=<64 hex>/);
  });

  it('--secret-file - reads the secret from stdin, unless the body is read from there too', async () => {
    const piped = await runMain(['webhook', 'verify', '--request', fixture('capture-crlf.http'), '--secret-file', '-'], {
      stdin: readFileSync(fixture('secret.txt')),
    });
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stdout).toMatch(/^authentic\t/);
    const sign = await runMain(['webhook', 'sign', tmp.path('gh.txt'), '--secret-file', '-'], { stdin: `${GH[0]}\n` });
    expect(sign).toMatchObject({ code: 0, stdout: `${GH[1]}\n` });
    const both = await runMain(['webhook', 'sign', '--secret-file', '-'], { stdin: 'Hello, World!' });
    expect(both.code).toBe(2);
    expect(both.stderr).toBe('error: --secret-file - and the body both read stdin: give one of them as a file.\n');
  });

  it('verify --request over the fixture captures: a JSON array, exit 1 for the tampered one', async () => {
    const names = ['capture-crlf.http', 'capture-lf.http', 'capture-chunked.http', 'capture-tampered.http'];
    const r = await runMain(['webhook', 'verify', '--request', ...names.map(fixture), '--secret-file', fixture('secret.txt'), '--json']);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.stdout) as { authentic: boolean }[]).map((v) => v.authentic)).toEqual([true, true, true, false]);
  });

  // A verdict line on a terminal, the secret from a hidden prompt (never shown), and the body typed there
  // too. (The body from a file with the secret prompted was a run of its own: the same prompt and line.)
  it('on a terminal, secret from the prompt and then the body typed there too (Ctrl-D ends it)', async () => {
    const answers = [
      { after: 'Webhook signing secret', text: `${GH[0]}\r` },
      { after: 'until Ctrl-D', text: 'Hello, World!\x04\x04' },
    ];
    const good = await runCliTty(['webhook', 'verify', '--signature', GH[1]], { answers });
    expect(good.code, good.output).toBe(0);
    expect(good.output).toContain('\x1b[32m✓ authentic\x1b[39m  \x1b[2m(no event)\x1b[22m  13 bytes\n');
    expect(good.output).not.toContain(GH[0]);
    const forged = await runCliTty(['webhook', 'verify', '--signature', `sha256=${'0'.repeat(64)}`], { answers });
    expect(forged.code, forged.output).toBe(1);
    expect(forged.output).toContain('✗ not authentic');
    const sign = await runCliTty(['webhook', 'sign'], { answers });
    expect(sign.code, sign.output).toBe(0);
    expect(sign.output).toContain(`${GH[1]}\n`);
  });

  it('Ctrl-D at the secret prompt ends the command as interrupted (130), in sign and login alike', async () => {
    for (const args of [
      ['webhook', 'sign', tmp.path('gh.txt')],
      ['login', '--base-url', 'http://127.0.0.1:9'],
    ]) {
      const r = await runCliTty(args, { answers: [{ after: args[0] === 'login' ? 'API key' : 'Webhook signing secret', text: '\x04' }] });
      expect(r.code, r.output).toBe(130);
      expect(r.output).toContain('error: interrupted');
      expect(r.output).not.toContain('a bug in booking');
    }
  });

  it('send --body - on a terminal: the secret is asked first, then the body is read', async () => {
    const answers = [
      { after: 'Webhook signing secret', text: `${GH[0]}\r` },
      { after: 'until Ctrl-D', text: '{"x":1}\x04\x04' },
    ];
    // Port 9 (discard) on loopback refuses: what matters is that both were read, not interrupted.
    const r = await runCliTty(['webhook', 'send', 'http://127.0.0.1:9/', '--event', 'booking.created', '--body', '-'], { answers });
    expect(r.code, r.output).toBe(1);
    expect(r.output).toContain('cannot reach http://127.0.0.1:9');
    expect(r.output).not.toContain('interrupted');
  });
});

describe('listen → send → verify --request between processes', () => {
  let listener: ChildProcess | undefined;
  afterAll(() => void listener?.kill('SIGKILL'));

  it('delivers, saves, verifies, and stops on SIGINT with exit 0', async () => {
    const dir = tempDir();
    try {
      listener = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--save-dir', dir.path('caps')], {
        cwd: ROOT,
        env: cleanEnv({ BOOKING_WEBHOOK_SECRET: 'whsec_e2e' }),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      listener.stdout!.on('data', (c: Buffer) => (out += c));
      const url = await new Promise<string>((resolve, reject) => {
        listener!.stderr!.on('data', (c: Buffer) => {
          err += c;
          const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
          if (m) resolve(`${m[1]}/hooks`);
        });
        listener!.on('exit', () => reject(new Error(`listen exited: ${err}`)));
      });
      const good = await runMain(['webhook', 'send', url, '--event', 'booking.rescheduled', '--secret', 'whsec_e2e']);
      expect(good).toMatchObject({ code: 0, stdout: expect.stringMatching(/^200\tOK\tbooking\.rescheduled\t\d+\thttp:\S+\n$/) });
      const bad = await runMain(['webhook', 'send', url, '--event', 'booking.cancelled', '--secret', 'wrong']);
      expect(bad.code).toBe(1);
      const exit = new Promise<number | null>((resolve) => listener!.on('exit', (code) => resolve(code)));
      listener.kill('SIGINT');
      expect(await exit).toBe(0);
      expect(
        out
          .trimEnd()
          .split('\n')
          .map((l) => l.split('\t').slice(1, 4)),
      ).toEqual([
        ['booking.rescheduled', 'authentic', expect.stringMatching(/^bk_[0-9a-f]{20}$/)],
        ['booking.cancelled', 'not-authentic', expect.stringMatching(/^bk_[0-9a-f]{20}$/)],
      ]);
      const files = readdirSync(dir.path('caps'))
        .sort()
        .map((f) => dir.path(`caps/${f}`));
      const v = await runMain(['webhook', 'verify', '--request', ...files, '--secret', 'whsec_e2e']);
      expect(v.code).toBe(1);
      expect(v.stdout.split('\n').map((l) => l.split('\t')[0])).toEqual(['authentic', 'not-authentic', '']);
    } finally {
      dir.cleanup();
    }
  });

  it('send to a closed port: exit 1 with one line', async () => {
    const r = await runMain(['webhook', 'send', 'http://127.0.0.1:9/hooks', '--event', 'booking.created'], {
      env: { BOOKING_WEBHOOK_SECRET: 's' },
    });
    expect(r).toMatchObject({ code: 1, stdout: '', stderr: 'error: cannot reach http://127.0.0.1:9: connection refused.\n' });
  });

  it('send with an event that is not one of the six: exit 2', async () => {
    const r = await runMain(['webhook', 'send', 'http://127.0.0.1:9/hooks', '--event', 'booking.deleted', '--secret', 's']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown event "booking.deleted"');
  });
});
