// docs/webhooks.md's examples, run as printed (test/helpers/doc-examples.ts): every ```sh block, line
// by line, in one temp folder, with `booking` on PATH. The only change is the ports (8787, 4010, 3000),
// swapped for free ones so that parallel runs never collide.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { docRunner, freePort, shLines, type DocRunner } from '../helpers/doc-examples';
import { startReceiver, type Receiver } from '../helpers/receiver';

const doc = readFileSync(join(ROOT, 'docs', 'webhooks.md'), 'utf8');
const lines = shLines(doc);

let runner: DocRunner | undefined;
let app: Receiver | undefined;
afterAll(async () => {
  runner?.cleanup();
  await app?.close();
});

describe('docs/webhooks.md', () => {
  it('has the loop: listen, sandbox, send, verify, replay', () => {
    expect(lines.join('\n')).toMatch(
      /export BOOKING_WEBHOOK_SECRET=[\s\S]*webhook listen[\s\S]*sandbox[\s\S]*webhook send[\s\S]*webhook verify --request[\s\S]*send .*--request/,
    );
    expect(doc).not.toMatch(/--secret [^f-]/);
  });

  it('every sh example runs as printed and exits 0', async () => {
    app = await startReceiver({ status: 204 });
    runner = docRunner({ 8787: await freePort(), 4010: await freePort(), 3000: Number(new URL(app.url).port) });
    for (const printed of lines) {
      const r = await runner.line(printed);
      if ('code' in r) expect(r.code, `${printed}\n${r.out}`).toBe(0);
    }
    // Forwarded by listen: the two sends and the replay at least (the sandbox's come as they come).
    await app.arrived(3);
    const received = app.received.map((r) => String(r.headers['x-service-event']));
    expect(received).toContain('booking.cancelled');
    expect(received.every((e) => e === 'booking.created' || e === 'booking.cancelled')).toBe(true);
    for (const { child } of runner.started) {
      const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    }
    expect(runner.started[0]!.output()).not.toMatch(/not-authentic|error:/);
  });
});
