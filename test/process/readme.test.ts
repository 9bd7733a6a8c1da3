// The README's two-minute path, run as printed (test/helpers/doc-examples.ts): with a sandbox running
// (step 2, "in a second terminal"), every ```sh line of steps 3 and 4 exits 0 and prints what the
// README says it does. The only change is the ports (4010, 8787), swapped for free ones.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { ROOT } from '../helpers/cli';
import { docRunner, freePort, shLines, type DocRunner } from '../helpers/doc-examples';
import { until } from '../helpers/until';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const twoMinutes = readme.slice(readme.indexOf('## Two minutes'), readme.indexOf('## Commands'));
const config = mkdtempSync(join(tmpdir(), 'booking-readme-config-'));
const stopSandbox = new AbortController();
let sandbox: Promise<number> | undefined;
let runner: DocRunner | undefined;
afterAll(async () => {
  runner?.cleanup();
  stopSandbox.abort();
  await sandbox;
  rmSync(config, { recursive: true, force: true });
});

describe('README', () => {
  it('is short, and links only to files in the repository', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(250);
    expect(readme).toMatch(/npm ci && npm run demo/);
    expect(readme).toMatch(/\bnpm test\b/);
    for (const [, target] of readme.matchAll(/\]\(([^)#]+)[^)]*\)/g)) {
      if (/^https?:/.test(target!)) continue;
      expect(() => readFileSync(join(ROOT, target!)), target).not.toThrow();
    }
  });

  it('the two-minute path runs as printed', async () => {
    const ports = { 4010: await freePort(), 8787: await freePort() };
    const io = testIO();
    sandbox = main(['sandbox', '--port', String(ports[4010]), '--tick', '0'], { io, env: {}, signal: stopSandbox.signal });
    // Listening once it prints its address (a refused connection to loopback is not retried).
    await until(() => io.out().includes(`127.0.0.1:${ports[4010]}`), 'the sandbox banner');
    runner = docRunner(ports, { BOOKING_CONFIG_DIR: config });
    const lines = shLines(twoMinutes);
    expect(lines.join('\n')).toMatch(/login[\s\S]*whoami[\s\S]*bookings list[\s\S]*webhook listen[\s\S]*webhook send[\s\S]*webhook verify/);
    const outputs: string[] = [];
    for (const printed of lines) {
      const r = await runner.line(printed);
      if ('code' in r) {
        expect(r.code, `${printed}\n${r.out}`).toBe(0);
        outputs.push(r.out);
      }
    }
    const all = outputs.join('\n');
    expect(all).toMatch(/Logged in to http:\/\/127\.0\.0\.1:\d+ \(profile default\)/);
    expect(all).toMatch(/"status": "confirmed"/);
    expect(all).toMatch(/^authentic\tbooking\.created\t/m);
  });
});
