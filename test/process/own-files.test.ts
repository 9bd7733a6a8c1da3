// Every file booking reads by name is opened once and checked as opened (issue 33; src/base/own-file.ts),
// seen as a user sees it: its exit code and one line on stderr. A watch state file
// that is a link, a FIFO, a folder, too big, another user's or writable by others is refused at once
// (a FIFO never waited on) and left as it was; a secret file, a capture, a body or a scenario named on
// the command line is refused when too big or a folder, unread, and followed through a link (the user
// named it: a Kubernetes secret is a link).
// The FIFO and another user's file are refused by the real process (a FIFO waited on would block the
// thread that opened it; ownership is the process's uid); the other refusals are the same code run
// in-process (runMain: same exit code, stdout and stderr), which spares ~0.1 s of CPU a start. Their
// files too big are sparse and just past the bound (100-200 MiB, not 3 GiB): a regression that read
// one would read it into this worker, and any size over the bound shows the refusal.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { runCli, type CliResult } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { NO_OTHER_USER, otherUser } from '../helpers/other-user';
import { skipNote } from '../helpers/skip';
import { fixture, tempDir } from '../helpers/webhook-kit';

const intruder = otherUser();
const tmp = tempDir();
afterAll(() => tmp.cleanup());

const mkfifo = (path: string) => expect(spawnSync('bash', ['-c', 'mkfifo -m 600 "$1"', 'mkfifo', path]).status).toBe(0);

/** A file of `bytes` that takes no disk (sparse), mode 0600. */
function sparse(path: string, bytes: number): void {
  closeSync(openSync(path, 'w', 0o600));
  truncateSync(path, bytes);
}

/**
 * A refusal: exit 2, one line naming `path`, no stack. Never killed: nothing ever writes to the FIFOs
 * here, so a run that waited on one would wait until runCli's kill, 10 s on (no wall-clock bound,
 * which a loaded machine would break: the exit itself shows nothing was waited on).
 */
function expectRefused(r: CliResult, path: string, why: string): void {
  expect(r.signal, r.stderr).toBeNull();
  expect(r.code, r.stderr).toBe(2);
  expect(r.stdout).toBe('');
  const first = r.stderr.split('\n')[0]!;
  expect(first).toContain(path);
  expect(first).toContain(why);
  expect(r.stderr).not.toMatch(/\n\s+at /);
}

const run = (args: string[], env: Record<string, string> = {}) =>
  runCli(args, { env: { BOOKING_CONFIG_DIR: tmp.path('config'), ...env }, timeoutMs: 10_000 });
/** The same run in this process. */
const here = (args: string[], env: Record<string, string> = {}) =>
  runMain(args, { env: { BOOKING_CONFIG_DIR: tmp.path('config'), ...env } });

describe('bookings watch --state and bookings changes --since: the state file', () => {
  let sb: Sandbox;
  let n = 0;
  let state: string;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 5 });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    state = tmp.path(`watch-${++n}.state`);
  });

  const env = () => ({ BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey });
  const args = () => ['bookings', 'watch', '--state', state, '--once', '-o', 'ndjson'];
  const watch = () => run(args(), env());
  const watchHere = () => here(args(), env());

  it('a FIFO is refused, not waited on, and left as it was', async () => {
    mkfifo(state);
    expectRefused(await watch(), state, `refusing --state ${state}: it is not a regular file (a FIFO).`);
    const since = await run(['bookings', 'changes', '--since', state], env());
    expectRefused(since, state, 'it is not a regular file (a FIFO)');
  });

  it('a symlink, even one pointing nowhere, is refused; nothing is written where it points', async () => {
    const real = tmp.path('real.state');
    writeFileSync(real, 'precious\n');
    symlinkSync(real, state);
    expectRefused(await watchHere(), state, 'it is a symbolic link');
    expect(readFileSync(real, 'utf8')).toBe('precious\n');
    const nowhere = tmp.path('nowhere.state');
    const dangling = tmp.path('dangling.state');
    symlinkSync(nowhere, dangling);
    state = dangling;
    expectRefused(await watchHere(), dangling, 'it is a symbolic link');
    expect(existsSync(nowhere)).toBe(false);
  });

  it('a file over twice --max-state is refused by its size, unread', async () => {
    sparse(state, 200 * 2 ** 20);
    expectRefused(await watchHere(), state, 'it is 200 MiB, over the 144 MiB a state within --max-state 72 MiB can be.');
  });

  it('a folder in its place is refused', async () => {
    mkdirSync(state);
    expectRefused(await watchHere(), state, 'it is a folder.');
  });

  it('a state file others can write to is refused (its deliveries owed are signed and sent), and left as it was', async () => {
    expect((await watchHere()).code).toBe(0);
    chmodSync(state, 0o666);
    const before = readFileSync(state);
    const r = await watchHere();
    expectRefused(r, state, 'other users can write to it (mode 0666).');
    expect(r.stderr).toContain('chmod 600');
    expect(readFileSync(state)).toEqual(before);
  });

  describe.skipIf(!intruder)(skipNote('owned by another local user', intruder ? undefined : NO_OTHER_USER), () => {
    it('a state file of another user is refused', async () => {
      expect((await watchHere()).code).toBe(0);
      chownSync(state, intruder!.uid, intruder!.gid);
      expectRefused(await watch(), state, `it belongs to another user (uid ${intruder!.uid})`);
    });
  });
});

describe('files named on the command line', () => {
  const verify = (...more: string[]) => here(['webhook', 'verify', '--request', fixture('capture-crlf.http'), ...more]);

  it('--secret-file through a link is read (the user named it: a Kubernetes secret is a link)', async () => {
    mkdirSync(tmp.path('..data'));
    writeFileSync(tmp.path('..data/secret'), readFileSync(fixture('secret.txt')));
    symlinkSync('..data/secret', tmp.path('secret'));
    const r = await verify('--secret-file', tmp.path('secret'));
    expect(r.code, r.stderr).toBe(0);
  });

  it('--secret-file a folder is refused', async () => {
    const folder = tmp.path('secret-folder');
    mkdirSync(folder);
    expectRefused(await verify('--secret-file', folder), folder, `refusing ${folder}: it is a folder.`);
  });

  it('a capture larger than any capture or HAR file may be is refused by its size, unread', async () => {
    const big = tmp.path('big.http');
    sparse(big, 200 * 2 ** 20);
    const r = await here(['webhook', 'verify', '--request', big], { BOOKING_WEBHOOK_SECRET: 's' });
    expectRefused(r, big, `refusing ${big}: it is 200 MiB, over the 128 MiB a capture or HAR file may be.`);
  });

  it('send --body and --scenario files over their bounds are refused by their size, unread', async () => {
    const body = tmp.path('big-body.json');
    sparse(body, 100 * 2 ** 20);
    const sent = await here(['webhook', 'send', 'http://127.0.0.1:9/h', '--body', body, '--event', 'booking.created']);
    expectRefused(sent, body, `refusing ${body}: it is 100 MiB, over the 64 MiB a body send reads may be.`);
    const steps = tmp.path('big-steps.json');
    sparse(steps, 2 * 2 ** 20);
    const scenario = await here(['webhook', 'send', 'http://127.0.0.1:9/h', '--scenario', steps]);
    expectRefused(scenario, steps, `refusing ${steps}: it is 2 MiB, over the 1 MiB a scenario (a list of steps) may be.`);
  });
});
