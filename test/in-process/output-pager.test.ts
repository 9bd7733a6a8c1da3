// The pager in-process (main() with a terminal test IO against a loopback server): a pager that
// cannot be run is a failure, never exit 0 with output that went nowhere; one that ends early by
// itself is a user quitting it. (The pager on a real pseudo-terminal: process.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shellCommand } from '../../src/output/pager';
import { runMain } from '../helpers/in-process';
import { tempConfigDir } from '../helpers/cli';
import { startOutputServer, type OutputServer } from '../helpers/output-server';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../helpers/until';

let server: OutputServer;
const cfg = tempConfigDir();
beforeAll(async () => {
  server = await startOutputServer({ kind: 'pages', total: 30, pageSize: 10 });
});
afterAll(async () => {
  await server.close();
  cfg.cleanup();
});

const list = (pager: string) =>
  runMain(['bookings', 'list', '--base-url', server.url], {
    tty: true,
    env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: 'sk_test_output', BOOKING_PAGER: pager },
  });

describe('the pager', () => {
  it('is exec-ed by its shell when it is one simple command (Ctrl-C then signals the pager itself)', () => {
    expect(shellCommand('less -FRX')).toBe('exec less -FRX');
    expect(shellCommand("  sed 's/^/PAGED:/'")).toBe("exec sed 's/^/PAGED:/'");
    expect(shellCommand('/usr/bin/less -R')).toBe('exec /usr/bin/less -R');
    for (const asWritten of [
      'LESS=R less',
      'less; clear',
      'less | cat',
      'less && true',
      '(less)',
      'exit 127',
      'if true; then less; fi',
      'less $OPTS',
      '. ./pager',
    ])
      expect(shellCommand(asWritten)).toBe(asWritten);
  });

  it('that the shell cannot run (exit 127 or 126): exit 1, saying the output was not shown', async () => {
    for (const pager of ['exit 127', 'exit 126']) {
      const r = await list(pager);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: the pager "${pager}" could not be run, so the output was not shown.`);
      expect(r.stderr).toContain('--no-pager');
    }
  });
  it('on a dumb terminal (TERM=dumb): PAGER and less are not started, the rows go straight out; BOOKING_PAGER still is', async () => {
    const env = { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: 'sk_test_output', TERM: 'dumb', PAGER: 'exit 127' };
    const plain = await runMain(['bookings', 'list', '--base-url', server.url], { tty: true, env });
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout.trimEnd().split('\n')).toHaveLength(31);
    const own = await runMain(['bookings', 'list', '--base-url', server.url], { tty: true, env: { ...env, BOOKING_PAGER: 'exit 127' } });
    expect(own.code).toBe(1);
  });
  it('that fails (PAGER=false, a non-zero status): exit 1, saying the output may not have been shown', async () => {
    for (const [pager, said] of [
      ['false', 'exited with status 1'],
      ['exit 3', 'exited with status 3'],
      ['kill -KILL $$', 'was ended by SIGKILL'],
    ] as const) {
      const r = await list(pager);
      expect(r.code, r.stderr).toBe(1);
      expect(r.stderr).toContain(`error: the pager "${pager}" ${said}, so the output may not have been shown.\n`);
    }
  });
  it('that ends by itself before the end (a user quitting it): exit 0, nothing said', async () => {
    const r = await list('exit 0');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toContain('error');
  });
});

describe('Ctrl-C while the pager shows a complete list', () => {
  // Issue 33: exit 130 whether the list was still coming or complete (it was 0 once complete). As git
  // does: the pager is ended, and the run ends as interrupted.
  it('exits 130, as while the list is still coming', async () => {
    const done = join(cfg.dir, 'pager-read-all');
    // Reads the whole list (it is complete), says so, then stays open as less does until quit.
    const pager = `cat > /dev/null; : > ${done}; exec sleep 60`;
    const stop = new AbortController();
    const run = runMain(['bookings', 'list', '--base-url', server.url], {
      tty: true,
      env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: 'sk_test_output', BOOKING_PAGER: pager },
      signal: stop.signal,
    });
    await until(() => existsSync(done), 'the pager to read the whole list');
    stop.abort(new Error('SIGINT'));
    expect((await run).code).toBe(130);
  });
});
