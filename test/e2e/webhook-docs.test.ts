// docs/webhooks.md's examples, run as printed: every ```sh block, line by line, in one temp folder,
// with `booking` on PATH. A line ending in `&` is started in the background and waited for until it
// prints its address; `export` lines set the environment of the lines after them. The only change
// is the ports (8787, 4010, 3000), swapped for free ones so that parallel runs never collide.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';
import { tempDir } from '../fixtures/webhook/kit';
import { until } from '../fixtures/webhook/listen-kit';

const doc = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
const lines = [...doc.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].flatMap((m) => m[1]!.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#')));

const dir = tempDir();
mkdirSync(dir.path('bin'));
writeFileSync(dir.path('bin/booking'), `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 });
const background: ChildProcess[] = [];
let app: Server | undefined;
afterAll(async () => {
  for (const child of background) child.kill('SIGKILL');
  await new Promise<void>((r) => (app ? app.close(() => r()) : r()));
  dir.cleanup();
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

function run(line: string, env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', line], { cwd: dir.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    child.stderr.on('data', (c: Buffer) => (out += c));
    child.on('close', (code) => resolve({ code, out }));
  });
}

function start(line: string, env: Record<string, string>): Promise<{ child: ChildProcess; output(): string }> {
  const port = /--port (\d+)/.exec(line)?.[1];
  const child = spawn('bash', ['-c', `exec ${line}`], { cwd: dir.dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  background.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const seen = (c: Buffer) => {
      out += c;
      if (out.includes(`127.0.0.1:${port}`)) resolve({ child, output: () => out });
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    child.on('exit', () => reject(new Error(`${line} exited: ${out}`)));
  });
}

describe('docs/webhooks.md', () => {
  it('has the loop: listen, sandbox, send, verify, replay', () => {
    expect(lines.join('\n')).toMatch(/export BOOKING_WEBHOOK_SECRET=[\s\S]*webhook listen[\s\S]*sandbox[\s\S]*webhook send[\s\S]*webhook verify --request[\s\S]*send .*--request/);
    expect(doc).not.toMatch(/--secret [^f-]/);
  });

  it('every sh example runs as printed and exits 0', async () => {
    const received: string[] = [];
    app = createServer((req, res) => (received.push(String(req.headers['x-service-event'])), req.resume(), res.writeHead(204).end()));
    await new Promise<void>((r) => app!.listen(0, '127.0.0.1', r));
    const ports: Record<string, number> = { 8787: await freePort(), 4010: await freePort(), 3000: (app.address() as { port: number }).port };
    const env = cleanEnv({ PATH: `${dir.path('bin')}:${process.env.PATH}` });
    const started: { child: ChildProcess; output(): string }[] = [];
    for (const printed of lines) {
      const line = printed.replace(/\b(8787|4010|3000)\b/g, (p) => String(ports[p]));
      const exported = /^export (\w+)=(\S+)$/.exec(line);
      if (exported) env[exported[1]!] = exported[2]!;
      else if (line.endsWith('&')) started.push(await start(line.slice(0, -1).trim(), env));
      else {
        const r = await run(line, env);
        expect(r.code, `${printed}\n${r.out}`).toBe(0);
      }
    }
    // Forwarded by listen: the two sends and the replay at least (the sandbox's come as they come).
    await until('three forwards at the app', () => received.length >= 3);
    expect(received).toContain('booking.cancelled');
    expect(received.every((e) => e === 'booking.created' || e === 'booking.cancelled')).toBe(true);
    for (const { child } of started) {
      const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    }
    expect(started[0]!.output()).not.toMatch(/not-authentic|error:/);
  });
});
