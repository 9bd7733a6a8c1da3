// `booking sandbox` as a user runs it: a real process, stopped by a signal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { until } from '../helpers/until';

function startProcess(args: string[]): {
  child: ChildProcessWithoutNullStreams;
  firstLine: Promise<string>;
  stderr: () => string;
  exit: Promise<number | null>;
} {
  const child = spawn(process.execPath, [BIN, 'sandbox', ...args], { cwd: ROOT, env: cleanEnv() });
  let out = '';
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const firstLine = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (c: Buffer) => {
      out += c.toString();
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    child.on('exit', () => reject(new Error(`exited before printing: ${err}`)));
  });
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, firstLine, stderr: () => err, exit };
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('booking sandbox process', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('serves on --port 0 and stops cleanly on %s: exit 0, nothing left', async (signal) => {
    const p = startProcess(['--port', '0', '--json', '--tick', '0.05']);
    try {
      const info = JSON.parse(await p.firstLine);
      expect(info.pid).toBe(p.child.pid);
      const r = await fetch(`${info.base_url}/api/v1/me`, { headers: { authorization: `Bearer ${info.api_key}` } });
      expect(r.status).toBe(200);
      // Until the first lifecycle line (bounded by the test's timeout, not a count a loaded machine may exhaust).
      await until(() => p.stderr().includes('lifecycle booking.'), 'a lifecycle line');
      p.child.kill(signal);
      expect(await p.exit).toBe(0);
      expect(alive(p.child.pid!)).toBe(false);
      await expect(fetch(`${info.base_url}/api/v1/me`)).rejects.toThrow();
      expect(p.stderr()).toMatch(/lifecycle booking\.created/);
      expect(p.stderr()).toMatch(/sandbox stopped\n$/);
    } finally {
      p.child.kill('SIGKILL');
    }
  });

  it('a port in use → one line on stderr, exit 1', async () => {
    const p = startProcess(['--port', '0', '--json', '--tick', '0']);
    try {
      const { port } = JSON.parse(await p.firstLine);
      // The refusal is the program's, not the process's: run here (runMain), sparing a start.
      const r = await runMain(['sandbox', '--port', String(port)]);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(
        `error: cannot listen on 127.0.0.1:${port}: the port is in use.\nPick another with --port, or --port 0 for any free one.\n`,
      );
    } finally {
      p.child.kill('SIGTERM');
      await p.exit;
    }
  });
});
