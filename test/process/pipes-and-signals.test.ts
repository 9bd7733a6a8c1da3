// How a listing ends when its reader goes away or the user presses Ctrl-C: `booking … | head -n 1`
// ends quietly (no error text, exit 0), and SIGINT part-way exits 130 with only whole lines written,
// also while waiting out a Retry-After or a stalled response.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaultServer } from '../helpers/fault-server';
import { BIN, ROOT, cleanEnv, tempConfigDir } from '../helpers/cli';
import {
  countLeaks,
  envFor,
  expectNoLeaks,
  expectNoStack,
  expectWholeNdjson,
  expectWholeTsv,
  startServer,
  show,
} from '../helpers/hardening-kit';
import { until } from '../helpers/until';

const COUNT = 600;
const PAGE = 20;

interface Live {
  /** Resolves once stdout holds at least n line breaks. */
  lines(n: number): Promise<void>;
  signal(sig: NodeJS.Signals): void;
  done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number }>;
}

/** The CLI as a child we can signal while it runs. */
function start(args: string[], env: Record<string, string>): Live {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  let signalledAt = 0;
  const waiters: { n: number; resolve(): void }[] = [];
  child.stdout.setEncoding('utf8').on('data', (c: string) => {
    stdout += c;
    const have = stdout.split('\n').length - 1;
    for (const w of waiters.splice(0)) have >= w.n ? w.resolve() : waiters.push(w);
  });
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const done = new Promise<Awaited<Live['done']>>((resolve) =>
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      countLeaks(args, stdout, stderr);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - signalledAt });
    }),
  );
  return {
    lines: (n) => new Promise((resolve) => (stdout.split('\n').length - 1 >= n ? resolve() : waiters.push({ n, resolve }))),
    signal: (sig) => {
      signalledAt = Date.now();
      child.kill(sig);
    },
    done,
  };
}

/** A shell pipeline as a user types it; the CLI's own exit status comes back through PIPESTATUS. */
function pipeline(cliArgs: string[], reader: string, env: Record<string, string>): Promise<{ cliCode: number; out: string; err: string }> {
  const quoted = [process.execPath, BIN, ...cliArgs].map((a) => `'${a}'`).join(' ');
  const script = `${quoted} | ${reader}; echo "cli-exit=\${PIPESTATUS[0]}" >&2`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd: ROOT, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
    child.on('error', reject);
    child.on('close', () => {
      countLeaks(cliArgs, out, err);
      const m = /cli-exit=(\d+)\n$/.exec(err);
      resolve({ cliCode: Number(m?.[1] ?? -1), out, err: err.replace(/cli-exit=\d+\n$/, '') });
    });
  });
}

describe('ending early', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => envFor(server.url, cfg.dir);
  beforeEach(async () => {
    // Pages arrive slowly (40 ms each), as from a real service, so the reader is gone long before the end.
    server = await startServer({
      count: COUNT,
      pageSize: PAGE,
      faults: (r) => (r.route === 'list' && r.page > 0 ? { kind: 'delay', ms: 40 } : undefined),
    });
  });
  afterEach(() => server.close());
  afterAll(() => {
    cfg.cleanup();
    expectNoLeaks('pipes-and-signals');
  });

  describe('a reader that closes the pipe after one line', () => {
    it.each([[[]], [['-o', 'ndjson']], [['--json']], [['-o', 'table']]])('bookings list %j | head -n 1: quiet, exit 0', async (format) => {
      const r = await pipeline(['bookings', 'list', ...format], 'head -n 1', env());
      expect(r.err).toBe('');
      expect(r.cliCode).toBe(0);
      expect(r.out.split('\n').filter(Boolean)).toHaveLength(1);
    });

    it('head -c 5 (the pipe closes mid-line): quiet, exit 0, and paging stops', async () => {
      const r = await pipeline(['bookings', 'list', '-o', 'ndjson'], 'head -c 5', env());
      expect(r.err).toBe('');
      expect(r.cliCode).toBe(0);
      expect(server.requests.length).toBeLessThan(COUNT / PAGE);
    });
  });

  describe('a reader slower than the CLI', () => {
    // It starts reading only after the listing is over: the pipe (64 KiB) is full long before that,
    // so the rest waits in the CLI, which must not exit until it is written.
    // The reader waits for a gate file, opened once the CLI has asked for every page or has stopped
    // asking (stdout full: it waits for the reader) for 300 ms. It looks for the gate every 0.1 s (a
    // `sleep` started every 20 ms was ~0.07 s of CPU a test; when the reader starts changes nothing).
    it.each([[['-o', 'ndjson']], [['--json']], [['--fields', 'uid,title']]])(
      'bookings list %j | (wait; cat): every item, exit 0',
      async (format) => {
        const gate = join(cfg.dir, `gate-${format.join('')}`);
        const running = pipeline(['bookings', 'list', ...format], `(while [ ! -e '${gate}' ]; do sleep 0.1; done; cat)`, env());
        let seen = -1;
        let since = Date.now();
        await until(() => {
          const n = server.requests.length;
          if (n !== seen) [seen, since] = [n, Date.now()];
          return n >= COUNT / PAGE || (n > 0 && Date.now() - since >= 300);
        }, 'every page asked for, or the pipe full');
        writeFileSync(gate, '');
        const r = await running;
        expect(r.cliCode, r.err).toBe(0);
        expect(r.err).toBe('');
        if (format[0] === '--json') expect(JSON.parse(r.out)).toHaveLength(COUNT);
        else if (format[0] === '-o') expect(expectWholeNdjson(r.out)).toHaveLength(COUNT);
        else expect(expectWholeTsv(r.out, 2)).toHaveLength(COUNT);
      },
    );
  });

  describe('Ctrl-C while paging', () => {
    it('ndjson: exit 130, only whole lines, promptly', async () => {
      const cli = start(['bookings', 'list', '-o', 'ndjson'], env());
      await cli.lines(3 * PAGE);
      cli.signal('SIGINT');
      const r = await cli.done;
      expect(r.code, show(r)).toBe(130);
      expect(r.ms).toBeLessThan(5000);
      const items = expectWholeNdjson(r.stdout);
      expect(items.length).toBeGreaterThanOrEqual(3 * PAGE);
      expect(items.length).toBeLessThan(COUNT);
      expectNoStack(r.stderr);
    });

    it('tsv: exit 130, every line with all its columns', async () => {
      const cli = start(['bookings', 'list', '--fields', 'uid,title,attendee.email'], env());
      await cli.lines(2 * PAGE);
      cli.signal('SIGINT');
      const r = await cli.done;
      expect(r.code, show(r)).toBe(130);
      expect(expectWholeTsv(r.stdout, 3).length).toBeGreaterThanOrEqual(2 * PAGE);
    });

    it('--json: exit 130, whole lines of an array left unclosed (never valid JSON for part of a list)', async () => {
      const cli = start(['bookings', 'list', '--json'], env());
      await cli.lines(2 * PAGE);
      cli.signal('SIGINT');
      const r = await cli.done;
      expect(r.code, show(r)).toBe(130);
      expect(r.stdout.startsWith('[\n')).toBe(true);
      expect(r.stdout.endsWith('\n')).toBe(true);
      expect(() => JSON.parse(r.stdout)).toThrow();
    });

    it('during a Retry-After wait or a stalled response: exit 130 at once, not after the wait', async () => {
      server.setFaults((r) => (r.route === 'list' && r.page === 2 ? { kind: 'status', status: 429, retryAfter: '30' } : undefined));
      const waiting = start(['bookings', 'list', '-o', 'ndjson'], env());
      await waiting.lines(2 * PAGE);
      // The 429 has been asked for: the CLI is (about to be) waiting out its Retry-After.
      await until(() => server.requests.some((q) => q.page === 2), 'page 2 asked for');
      waiting.signal('SIGINT');
      const r1 = await waiting.done;
      expect(r1.code, show(r1)).toBe(130);
      expect(r1.ms).toBeLessThan(5000); // not the 30 s Retry-After
      expect(expectWholeNdjson(r1.stdout)).toHaveLength(2 * PAGE);

      server.setFaults((r) => (r.route === 'list' && r.page === 1 ? { kind: 'stall' } : undefined));
      const stalled = start(['bookings', 'list', '-o', 'ndjson'], env());
      await stalled.lines(PAGE);
      await until(() => server.requests.some((q) => q.page === 1), 'page 1 asked for');
      stalled.signal('SIGINT');
      const r2 = await stalled.done;
      expect(r2.code, show(r2)).toBe(130);
      expect(r2.ms).toBeLessThan(5000); // not the 30 s timeout
      expect(expectWholeNdjson(r2.stdout)).toHaveLength(PAGE);
    });
  });
});
