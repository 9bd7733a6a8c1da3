// Where `webhook verify` / `webhook sign` read from, as a shell user gives it: captures and bodies
// through a pipe, a FIFO or process substitution (none can be read by position, nor twice), and a
// body typed on a terminal (a note says how to end it; Ctrl-C stops the wait at once).
// A named FIFO is read by the same code as a pipe (both stat as FIFOs, src/webhook/input.ts): the
// FIFO cases run in-process (runMain) with a bash writer, sparing a node start each (~0.15 s of CPU);
// pipes, `<(…)`, stdin, signals and terminals stay real processes.
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT, runCliTty } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { fixture, tempDir } from '../helpers/webhook-kit';
import { holdsOpen } from '../helpers/process-state';
import { until } from '../helpers/until';

const GH = ["It's a Secret to Everybody", 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17'] as const;
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
const booking = `${q(process.execPath)} ${q(BIN)}`;
const SECRET_FILE = q(fixture('secret.txt'));

/** A FIFO at `name`, and `script` run by bash in the background ($1 is the FIFO) to write it. */
function fifoWrittenBy(name: string, script: string): { fifo: string; written: Promise<unknown> } {
  const fifo = tmp.path(name);
  expect(spawnSync('bash', ['-c', 'mkfifo "$1"', 'mkfifo', fifo]).status).toBe(0);
  const writer = spawn('bash', ['-c', script, 'writer', fifo], { stdio: 'ignore' });
  return { fifo, written: new Promise((resolve) => writer.on('exit', resolve)) };
}

/** Runs a bash script (for `<(…)`, pipes and FIFOs) with the CLI as $booking. */
function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', `booking() { ${booking} "$@"; }\n${script}`], {
      cwd: ROOT,
      env: cleanEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

describe('verify --request from sources that cannot seek', () => {
  it('process substitution: authentic, exit 0', async () => {
    const r = await bash(`booking webhook verify --request <(cat ${q(fixture('capture-crlf.http'))}) --secret-file ${SECRET_FILE}`);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(/^authentic\tbooking\.created\t244\t\t\/dev\/fd\/\d+\n$/);
    expect(r.code).toBe(0);
  });

  it('/dev/stdin fed by a pipe (chunked, LF line ends)', async () => {
    const r = await bash(
      `cat ${q(fixture('capture-chunked-lf.http'))} | booking webhook verify --request /dev/stdin --secret-file ${SECRET_FILE}`,
    );
    expect(r).toEqual({ code: 0, stdout: 'authentic\tbooking.created\t244\t\t/dev/stdin\n', stderr: '' });
  });

  it('/dev/stdin when stdin is a socket (a parent in node), and a capture whose body has no framing', async () => {
    const capture = Buffer.concat([
      Buffer.from('POST /h HTTP/1.1\r\nX-Service-Event: booking.created\r\nX-Service-Signature: sha256=', 'latin1'),
      Buffer.from(GH[1].slice(7)),
      Buffer.from('\r\n\r\nHello, World!'),
    ]);
    const r = await runMain(['webhook', 'verify', '--request', '/dev/stdin'], { stdin: capture, env: { BOOKING_WEBHOOK_SECRET: GH[0] } });
    expect(r).toMatchObject({ code: 0, stdout: 'authentic\tbooking.created\t13\t\t/dev/stdin\n', stderr: '' });
  });

  it('a FIFO, next to a regular file, in one run', async () => {
    const { fifo, written } = fifoWrittenBy('fifo', `cat ${q(fixture('capture-lf.http'))} > "$1"`);
    const r = await runMain([
      'webhook',
      'verify',
      '--request',
      fixture('capture-crlf.http'),
      fifo,
      '--secret-file',
      fixture('secret.txt'),
      '-o',
      'ndjson',
    ]);
    await written;
    // The two fixtures carry the same body (CRLF and LF heads): the second is a duplicate of the first.
    expect(r.stderr).toBe(
      "2 deliveries: 2 authentic, 0 not authentic; 1 duplicate (a body seen before: the sender's retries, which a receiver must handle once)\n",
    );
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => JSON.parse(l) as { authentic: boolean; bytes: number }),
    ).toMatchObject([
      { authentic: true, bytes: 244 },
      { authentic: true, bytes: 244 },
    ]);
    expect(r.code).toBe(0);
  });

  it('a FIFO nobody writes to yet: it waits, and the capture written later verifies', async () => {
    const { fifo, written } = fifoWrittenBy('late-fifo', `sleep 0.3; cat ${q(fixture('capture-crlf.http'))} > "$1"`);
    const r = await runMain(['webhook', 'verify', '--request', fifo, '--secret-file', fixture('secret.txt')]);
    await written;
    expect(r).toMatchObject({ code: 0, stdout: expect.stringMatching(/^authentic\tbooking\.created\t244\t/), stderr: '' });
  });

  it('Ctrl-C (SIGINT) while it waits for a FIFO writer: exit 130 at once', async () => {
    const fifo = tmp.path('idle-fifo');
    await bash(`mkfifo ${q(fifo)}`);
    const child = spawn(process.execPath, [BIN, 'webhook', 'verify', '--request', fifo], {
      cwd: ROOT,
      env: cleanEnv({ BOOKING_WEBHOOK_SECRET: 's' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    // It opens the FIFO without waiting, then waits for a writer on it: signalled once it holds it.
    await until(() => holdsOpen(child.pid!, fifo), 'the FIFO held open');
    const signalled = Date.now();
    child.kill('SIGINT');
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    const code = await exit;
    clearTimeout(killer);
    expect(code).toBe(130);
    expect(Date.now() - signalled).toBeLessThan(2000);
    expect(stderr).toBe('error: interrupted\n');
  });

  it('a streamed capture (a FIFO, read as a pipe is) that does not match still gets its causes (the bytes were kept for a second pass)', async () => {
    const lf = '{\n  "uid": "bk_9"\n}';
    const crlf = lf.replace(/\n/g, '\r\n');
    const { createHmac } = await import('node:crypto');
    const sig = createHmac('sha256', 's3cret').update(lf).digest('hex');
    const capture = `POST /h HTTP/1.1\r\nX-Service-Signature: sha256=${sig}\r\nContent-Length: ${crlf.length}\r\n\r\n${crlf}`;
    const { fifo, written } = fifoWrittenBy('crlf-fifo', `printf '%s' ${q(capture)} > "$1"`);
    const r = await runMain(['webhook', 'verify', '--request', fifo, '--secret', 's3cret', '--json']);
    await written;
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout)).toMatchObject([{ file: fifo, authentic: false, hints: ['crlf'] }]);
  });

  it('garbage through a pipe: exit 2 naming it, no stack', async () => {
    const r = await bash(`BOOKING_WEBHOOK_SECRET=s booking webhook verify --request <(echo not http)`);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: \/dev\/fd\/\d+ is not an HTTP request capture: .*\nA capture is a request line/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('a body from a pipe or FIFO given as FILE', () => {
  it('sign <(…) and verify <(…) --signature', async () => {
    const r = await bash(
      `export BOOKING_WEBHOOK_SECRET=${q(GH[0])}; booking webhook sign <(printf 'Hello, World!') && booking webhook verify <(printf 'Hello, World!') --signature ${GH[1]}`,
    );
    expect(r).toEqual({ code: 0, stdout: `${GH[1]}\nauthentic\t\t13\n`, stderr: '' });
  });
});

describe('a body typed on a terminal', () => {
  it('sign: a note on how to end it, then the signature of what was typed', async () => {
    const r = await runCliTty(['webhook', 'sign', '--secret', GH[0]], {
      answers: [{ after: 'until Ctrl-D', text: 'Hello, World!\x04\x04' }],
    });
    expect(r.output).toContain('Reading the body from stdin until Ctrl-D (end of input); Ctrl-C cancels.\n');
    expect(r.output).toContain(`${GH[1]}\n`);
    expect(r.code).toBe(0);
  });

  it('verify: Ctrl-C while it waits exits 130 at once', async () => {
    const started = Date.now();
    const r = await runCliTty(['webhook', 'verify', '--signature', GH[1], '--secret', GH[0]], {
      answers: [{ after: 'until Ctrl-D', text: '\x03' }],
    });
    const took = Date.now() - started;
    expect(r.code).toBe(130);
    expect(r.output).toContain('error: interrupted\n');
    // bin/booking.js ends a command that ignores the signal 3 s after it; this one must not need that.
    expect(took).toBeLessThan(2500);
  });

  it('send --body -: the same note, and Ctrl-C exits 130 at once', async () => {
    const started = Date.now();
    const r = await runCliTty(
      ['webhook', 'send', 'http://127.0.0.1:9/hooks', '--event', 'booking.created', '--body', '-', '--secret', 's'],
      { answers: [{ after: 'until Ctrl-D', text: '\x03' }] },
    );
    expect(r.code).toBe(130);
    expect(r.output).toContain('Reading the body from stdin until Ctrl-D (end of input); Ctrl-C cancels.\n');
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('-q: no note (it is a hint)', async () => {
    const r = await runCliTty(['-q', 'webhook', 'sign', '--secret', GH[0]], { stdin: 'Hello, World!\x04\x04' });
    expect(r.output).not.toContain('Ctrl-D');
    expect(r.output).toContain(`${GH[1]}\n`);
  });

  it('no note when stdin is a pipe', async () => {
    const r = await runMain(['webhook', 'sign'], { stdin: 'Hello, World!', env: { BOOKING_WEBHOOK_SECRET: GH[0] } });
    expect(r).toMatchObject({ code: 0, stdout: `${GH[1]}\n`, stderr: '' });
  });
});

describe('stdin named twice', () => {
  it('--request - - is a usage error (exit 2) before anything is read', async () => {
    const r = await runMain(['webhook', 'verify', '--request', '-', '-'], { stdin: 'x', env: { BOOKING_WEBHOOK_SECRET: GH[0] } });
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: 'error: --request - is given twice: stdin can be read once.\n' });
  });
});

describe('stdin that is a folder (`< some-folder`)', () => {
  it('is unreadable input (exit 2), not an empty body', () => {
    const folder = openSync(ROOT, 'r');
    try {
      for (const args of [
        ['webhook', 'sign'],
        ['webhook', 'verify', '--request', '-'],
      ]) {
        const r = spawnSync(process.execPath, [BIN, ...args], {
          cwd: ROOT,
          env: cleanEnv({ BOOKING_WEBHOOK_SECRET: 'k' }),
          stdio: [folder, 'pipe', 'pipe'],
          encoding: 'utf8',
        });
        expect(r.status, r.stderr).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe('error: cannot read stdin: is a directory.\n');
      }
    } finally {
      closeSync(folder);
    }
  });
});
