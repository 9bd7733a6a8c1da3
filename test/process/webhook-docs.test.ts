// docs/webhooks.md's examples, run as printed (test/helpers/doc-examples.ts): every ```sh block, line
// by line, in one temp folder, with `booking` on PATH. The only change is the ports (8787, 8788, 4010, 4011, 3000,
// and the schemes section's 8791-8794 and 4021-4024),
// swapped for free ones so that parallel runs never collide.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli';
import { docRunner, freePort, shLines, type DocRunner } from '../helpers/doc-examples';
import { until } from '../helpers/until';
import { fixture } from '../helpers/webhook-kit';
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
    app = await startReceiver({ answer: 204 });
    runner = docRunner({
      8787: await freePort(),
      8788: await freePort(),
      4010: await freePort(),
      4011: await freePort(),
      3000: Number(new URL(app.url).port),
      // The schemes section: a listen and a sandbox for each scheme but the service's.
      ...Object.fromEntries(await Promise.all([8791, 8792, 8793, 8794, 4021, 4022, 4023, 4024].map(async (p) => [p, await freePort()]))),
    });
    writeFileSync(join(runner.dir, 'localhost.har'), harSignedWith('whsec_sandbox'));
    for (const printed of lines) {
      const r = await runner.line(printed);
      if ('code' in r) expect(r.code, `${printed}\n${r.out}`).toBe(0);
    }
    // Forwarded by listen: the two sends and the replay at least (the sandbox's come as they come).
    await app.arrived(3);
    const received = app.received.map((r) => String(r.headers['x-service-event']));
    expect(received).toContain('booking.cancelled');
    expect(received.every((e) => e === 'booking.created' || e === 'booking.cancelled')).toBe(true);
    // The retries section: the sandbox's third attempt of a delivery, answered 200 (tsv: attempt,
    // first capture, answered status at the end of the line).
    const retries = runner.started.find((b) => b.child.spawnargs.join(' ').includes('--respond 500'))!;
    await until(() => /\t3\t[^\t]+\.http\t200\n/.test(retries.output()), 'a third attempt answered 200');
    for (const { child } of runner.started) {
      const exit = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    }
    expect(runner.started[0]!.output()).not.toMatch(/not-authentic|error:/);
    // About forty commands (the schemes' section has eight listens and sandboxes and their sends and
    // verifies), each a process start: on a loaded 2-core machine well over a minute.
  }, 240_000);
});

interface HarRequest {
  headers: { name: string; value: string }[];
  postData?: { text: string; encoding?: string };
}

/** The devtools export the HAR section verifies: the fixture's page GET and its two good deliveries, signed with `secret`. */
function harSignedWith(secret: string): string {
  const har = JSON.parse(readFileSync(fixture('devtools.har'), 'utf8')) as { log: { entries: { request: HarRequest }[] } };
  har.log.entries = har.log.entries.slice(0, 3);
  for (const { request } of har.log.entries) {
    const sig = request.headers.find((h) => h.name === 'X-Service-Signature');
    if (!sig || !request.postData) continue;
    const body = Buffer.from(request.postData.text, request.postData.encoding === 'base64' ? 'base64' : 'utf8');
    sig.value = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
  }
  return JSON.stringify(har, null, 2);
}
