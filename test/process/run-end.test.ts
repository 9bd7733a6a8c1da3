// How a run that is done ends (bin/booking.js endWhenDone): its exit code set and node's loop left to
// run empty, not process.exit(). On node 24 and 26 V8 compiles in the background (concurrent
// Sparkplug), and a process.exit() while such a compile waits for the main thread's garbage collection
// never returns (nodejs/node#54918): `webhook listen` stopped after a burst of 60 MiB deliveries hung
// so about once in 30 runs on a loaded machine (listen-memory.test.ts timed out in CI, every sender
// long answered). That deadlock is a race no test can call up at will; what is held here is that a run
// that is done no longer takes the path where it happens. The exits that must stay at once (a second
// Ctrl-C, a run slow to stop, a closed pipe) are held by the interrupt and pipe tests.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cleanEnv, tempConfigDir } from '../helpers/cli';
import { until } from '../helpers/until';

const SPY = join(ROOT, 'test', 'helpers', 'exit-spy.cjs');

/** The CLI with process.exit() watched: `exits` lists each call (fd 3), `stderr` what it printed. */
function run(args: string[]) {
  const config = tempConfigDir();
  const child = spawn(process.execPath, ['-r', SPY, BIN, ...args], {
    cwd: ROOT,
    env: cleanEnv({ BOOKING_CONFIG_DIR: config.dir, BOOKING_WEBHOOK_SECRET: 'whsec_run_end' }),
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
  });
  const seen = { exits: '', stderr: '' };
  (child.stdio[3] as Readable).setEncoding('utf8').on('data', (c: string) => (seen.exits += c));
  child.stderr!.setEncoding('utf8').on('data', (c: string) => (seen.stderr += c));
  const ended = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      config.cleanup();
      resolve(code);
    }),
  );
  return { child, seen, ended };
}

describe('a run that is done ends with its loop, not process.exit()', () => {
  it('webhook listen stopped with Ctrl-C: exit 0', async () => {
    const { child, seen, ended } = run(['webhook', 'listen', '--port', '0', '--no-save']);
    await until(() => seen.stderr.includes('Listening for deliveries on'), 'listen to start');
    child.kill('SIGINT');
    expect(await ended).toBe(0);
    expect(seen.exits).toBe('');
  });

  it.each([
    ['a usage error', ['bookings', 'get'], 2],
    ['help', ['webhook', '--help'], 0],
  ] as const)('%s: its exit code all the same', async (_, args, code) => {
    const { seen, ended } = run([...args]);
    expect(await ended).toBe(code);
    expect(seen.exits).toBe('');
  });
});
