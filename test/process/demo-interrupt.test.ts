// Ctrl-C during `npm run demo`: the terminal sends SIGINT to the demo and to the command it runs;
// the demo stops there, starting no further step, and cleans up (exit 130).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { cleanEnv, ROOT } from '../helpers/cli';

it('Ctrl-C during the demo starts no further step', async () => {
  // Its own process group, as a terminal's foreground job: the signal goes to the demo and its children.
  const child = spawn(process.execPath, [join(ROOT, 'scripts', 'demo.mjs')], {
    cwd: ROOT,
    env: cleanEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  let sent = false;
  const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 60_000);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    if (!sent && out.includes('$ booking whoami')) {
      sent = true;
      process.kill(-child.pid!, 'SIGINT');
    }
  });
  child.stderr.resume();
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearTimeout(timer);
  expect(sent).toBe(true);
  expect(code).toBe(130);
  const [, after] = out.split('demo: interrupted');
  expect(after, out).toBeDefined();
  expect(after).not.toContain('$ booking');
  expect(out).not.toContain('Demo done');
}, 70_000);
