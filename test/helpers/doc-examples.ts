// Running a document's ```sh examples as printed: line by line, in one temp folder, with `booking` on
// PATH. A line ending in `&` is started in the background and waited for until it prints its address;
// `export` lines set the environment of the lines after them; `kill %1` stops the first background
// line. The only change to a line is its ports, swapped for free ones so that parallel runs never
// collide. Used by the README's and docs/webhooks.md's tests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BIN, cleanEnv } from './cli';

/** The non-empty, non-comment lines of every ```sh block of a markdown text (or of one section's). */
export function shLines(markdown: string): string[] {
  return [...markdown.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) =>
    m[1]!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')),
  );
}

/**
 * A port free now, and below the kernel's ephemeral range: the examples bind it later, and a port the
 * kernel handed out for `listen(0)` could meanwhile be handed to another test's server running beside
 * (which once answered a docs example's deliveries with its own 401s). Below that range, only an
 * explicit port can take it.
 */
export async function freePort(): Promise<number> {
  const low = ephemeralLow();
  for (;;) {
    const port = 10_000 + Math.floor(Math.random() * (low - 10_000));
    const s = createServer();
    const bound = await new Promise<boolean>((r) => {
      s.once('error', () => r(false));
      s.listen(port, '127.0.0.1', () => r(true));
    });
    if (!bound) continue;
    await new Promise<void>((r) => s.close(() => r()));
    return port;
  }
}

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return low > 11_000 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

interface Background {
  child: ChildProcess;
  output(): string;
}

export interface DocRunner {
  dir: string;
  env: Record<string, string>;
  /** Runs one printed line (ports swapped): its exit code and output, or a started background process. */
  line(printed: string): Promise<{ code: number | null; out: string } | Background>;
  started: Background[];
  cleanup(): void;
}

/** A temp folder with `booking` on PATH; `ports` maps a printed port to the one to use instead. */
export function docRunner(ports: Record<string, number>, extraEnv: Record<string, string> = {}): DocRunner {
  const dir = mkdtempSync(join(tmpdir(), 'booking-doc-'));
  mkdirSync(join(dir, 'bin'));
  writeFileSync(join(dir, 'bin', 'booking'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
  const env = cleanEnv({ PATH: `${join(dir, 'bin')}:${process.env.PATH}`, ...extraEnv });
  const started: Background[] = [];
  const pattern = new RegExp(`\\b(${Object.keys(ports).join('|')})\\b`, 'g');
  const swap = (line: string) => (Object.keys(ports).length ? line.replace(pattern, (p) => String(ports[p])) : line);

  const run = (line: string) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = spawn('bash', ['-c', line], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c));
      child.stderr.on('data', (c: Buffer) => (out += c));
      child.on('close', (code) => resolve({ code, out }));
    });

  const start = (line: string) => {
    const port = /--port (\d+)/.exec(line)?.[1];
    const child = spawn('bash', ['-c', `exec ${line}`], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const bg: Background = { child, output: () => out };
    started.push(bg);
    return new Promise<Background>((resolve, reject) => {
      const seen = (c: Buffer) => {
        out += c;
        // An error naming the address (it is in use) is a failed start, not a ready one.
        if (/^error:/m.test(out)) reject(new Error(`${line} failed: ${out}`));
        else if (out.includes(`127.0.0.1:${port}`)) resolve(bg);
      };
      child.stdout!.on('data', seen);
      child.stderr!.on('data', seen);
      child.on('exit', () => reject(new Error(`${line} exited: ${out}`)));
    });
  };

  // A port free when chosen can be taken before the line binds it (another suite on the machine picks
  // from the same range): the line is started again on another free port, which the later lines use.
  const startOnFreePort = async (printed: string, tries = 3): Promise<Background> => {
    try {
      return await start(swap(printed));
    } catch (err) {
      const port = /cannot listen on 127\.0\.0\.1:(\d+): the port is in use/.exec(String(err))?.[1];
      const key = Object.keys(ports).find((k) => String(ports[k]) === port);
      if (tries === 1 || key === undefined) throw err;
      started.pop();
      ports[key] = await freePort();
      return startOnFreePort(printed, tries - 1);
    }
  };

  return {
    dir,
    env,
    started,
    async line(printed) {
      const line = swap(printed);
      const exported = /^export (\w+)=(\S+)$/.exec(line);
      if (exported) {
        env[exported[1]!] = exported[2]!;
        return { code: 0, out: '' };
      }
      const job = /^kill %(\d+)$/.exec(line);
      if (job) {
        const bg = started[Number(job[1]) - 1];
        if (!bg) return { code: 1, out: `no job ${job[1]}` };
        const exit = new Promise<number | null>((r) => bg.child.on('exit', (code) => r(code)));
        bg.child.kill('SIGTERM');
        return { code: await exit, out: bg.output() };
      }
      if (line.endsWith('&')) return startOnFreePort(printed.slice(0, -1).trim());
      return run(line);
    },
    cleanup() {
      for (const { child } of started) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
