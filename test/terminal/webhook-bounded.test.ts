// Issue 23, "reads that can block forever": a secret file and the captures are read under a size
// bound, through the reader that honours Ctrl-C. A FIFO with no writer as --secret-file, /dev/zero as
// a secret, a FIFO named x.http in a capture folder, an endless capture, and the verdicts made before
// a Ctrl-C. The signal tests spawn bin/booking.js and wait for a condition (the process holds the FIFO
// open, lines have arrived), never a fixed time.
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, truncateSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { SECRET_FILE_LIMIT } from '../../src/commands/webhook/shared/secret';
import { CAPTURE_LIMIT } from '../../src/webhook/capture';
import { BIN, cleanEnv, ROOT, runCliTty } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { fixture, tempDir } from '../helpers/webhook-kit';
import { holdsOpen } from '../helpers/process-state';
import { until } from '../helpers/until';

const tmp = tempDir();
afterAll(() => tmp.cleanup());
const SECRET_FILE = fixture('secret.txt');
// Through bash, as the other FIFO tests make theirs.
const mkfifo = (path: string) => expect(spawnSync('bash', ['-c', 'mkfifo "$1"', 'mkfifo', path]).status).toBe(0);

function start(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [BIN, 'webhook', 'verify', ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  void exit.then(() => clearTimeout(killer));
  return { child, exit, out: () => stdout, err: () => stderr };
}

/** SIGINT, then how long the process took to exit and its code. */
async function interrupt(p: ReturnType<typeof start>): Promise<{ code: number | null; ms: number }> {
  const sent = Date.now();
  p.child.kill('SIGINT');
  const code = await p.exit;
  return { code, ms: Date.now() - sent };
}

describe('--secret-file that never ends or never starts', () => {
  it('a FIFO nobody writes to: Ctrl-C exits 130 within a second', async () => {
    const fifo = tmp.path('secret-fifo');
    mkfifo(fifo);
    const p = start(['--request', fixture('capture-crlf.http'), '--secret-file', fifo]);
    // Opened (without blocking) and waited on: the moment the old code hung in the thread pool.
    await until(() => holdsOpen(p.child.pid!, fifo), 'the FIFO held open');
    const { code, ms } = await interrupt(p);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(1000);
    expect(p.err()).toBe('error: interrupted\n');
  });

  it('/dev/zero is refused at the bound, not read on', async () => {
    const r = await runMain(['webhook', 'verify', '--request', fixture('capture-crlf.http'), '--secret-file', '/dev/zero']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: refusing /dev/zero: it is over the ${SECRET_FILE_LIMIT / 1024} KiB a secret file may hold; not read further.\n`,
    );
  });

  it('/dev/tty is refused (typed there the secret would show): the prompt asks without echo', async () => {
    const r = await runCliTty(['webhook', 'sign', fixture('body.json'), '--secret-file', '/dev/tty']);
    expect(r.code).toBe(2);
    expect(r.output).toMatch(
      /error: --secret-file \/dev\/tty is a terminal: leave --secret-file out to be asked for the secret without echo\./,
    );
  });

  it('a regular file over the bound is refused by its size', async () => {
    const big = tmp.path('big-secret');
    writeFileSync(big, 'x'.repeat(SECRET_FILE_LIMIT + 1));
    const r = await runMain(['webhook', 'sign', fixture('body.json'), '--secret-file', big]);
    expect(r).toMatchObject({
      code: 2,
      stderr: `error: refusing ${big}: it is ${SECRET_FILE_LIMIT + 1} bytes, over the 4 KiB a secret file may hold.\n`,
    });
  });

  it('a secret file written to a FIFO later is read (the wait is for a writer, not an error)', async () => {
    const fifo = tmp.path('late-secret-fifo');
    mkfifo(fifo);
    const p = start(['--request', fixture('capture-crlf.http'), '--secret-file', fifo]);
    await until(() => holdsOpen(p.child.pid!, fifo), 'the FIFO held open');
    spawnSync('bash', ['-c', `cat '${SECRET_FILE}' > '${fifo}'`]);
    expect(await p.exit).toBe(0);
    expect(p.out()).toMatch(/^authentic\t/);
  });
});

describe('captures that could hang', () => {
  it('a FIFO named x.http in a capture folder is reported and skipped; the rest is checked', async () => {
    const dir = tempDir();
    try {
      copyFileSync(fixture('capture-crlf.http'), dir.path('a.http'));
      mkfifo(dir.path('x.http'));
      const r = await runMain(['webhook', 'verify', '--request', dir.dir, '--secret-file', SECRET_FILE]);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^authentic\tbooking\.created\t244\t\t.*a\.http\n$/);
      expect(r.stderr).toBe(
        `warning: skipped ${dir.path('x.http')}: a FIFO (in a folder only regular files are read; name it on its own to read from it).\n`,
      );
    } finally {
      dir.cleanup();
    }
  });

  it('a capture whose body passes 64 MiB is refused, not read to its end', async () => {
    const path = tmp.path('endless.http');
    const head = `POST /h HTTP/1.1\r\nX-Service-Event: booking.created\r\nX-Service-Signature: sha256=${'0'.repeat(64)}\r\n\r\n`;
    writeFileSync(path, head);
    truncateSync(path, head.length + CAPTURE_LIMIT + 1); // sparse: a body of zeros with no framing
    const r = await runMain(['webhook', 'verify', '--request', path], { env: { BOOKING_WEBHOOK_SECRET: 's' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(
      `error: ${path} is larger than a capture may be (a body of at most 64 MiB, as \`webhook listen\` accepts); not read further.\n`,
    );
  });

  it('Ctrl-C while waiting on a capture: the verdicts already made are printed, then exit 130', async () => {
    const fifo = tmp.path('capture-fifo');
    mkfifo(fifo);
    const p = start(['--request', fixture('capture-crlf.http'), fixture('capture-tampered.http'), fifo, '--secret-file', SECRET_FILE]);
    await until(() => holdsOpen(p.child.pid!, fifo), 'the FIFO held open');
    const { code, ms } = await interrupt(p);
    expect(code).toBe(130);
    expect(ms).toBeLessThan(1000);
    expect(
      p
        .out()
        .split('\n')
        .map((l) => l.split('\t')[0]),
    ).toEqual(['authentic', 'not-authentic', '']);
  });

  it('with -o json a Ctrl-C leaves the array unclosed (as a list cut short): the verdicts made, never valid JSON', async () => {
    const fifo = tmp.path('capture-fifo-json');
    mkfifo(fifo);
    const p = start(['--request', fixture('capture-crlf.http'), fifo, '--secret-file', SECRET_FILE, '-o', 'json']);
    await until(() => holdsOpen(p.child.pid!, fifo), 'the FIFO held open');
    expect((await interrupt(p)).code).toBe(130);
    const out = p.out();
    expect(out.startsWith('[\n  {\n') && out.endsWith('\n  }\n'), out).toBe(true);
    expect(() => JSON.parse(out)).toThrow();
    expect(JSON.parse(`${out}]`)).toMatchObject([{ authentic: true }]);
  });
});
