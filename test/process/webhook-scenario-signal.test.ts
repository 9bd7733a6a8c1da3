// `send --scenario` as its own process: Ctrl-C (SIGINT) during a --delay ends it at once with 130,
// after the deliveries already made, with nothing more sent.
import { spawn } from 'node:child_process';
import { expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';
import { startReceiver } from '../helpers/receiver';

it('SIGINT during --delay: exit 130 within a second, one delivery made', async () => {
  const receiver = await startReceiver();
  try {
    const child = spawn(process.execPath, [BIN, 'webhook', 'send', `${receiver.url}/hooks`, '--scenario', 'lifecycle', '--delay', '60s'], {
      cwd: ROOT,
      env: cleanEnv({ BOOKING_WEBHOOK_SECRET: 'whsec_signal' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    await new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('\n') && resolve()));
    const sent = Date.now();
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(Date.now() - sent).toBeLessThan(1500);
    expect(receiver.received).toHaveLength(1);
    // status, step, event (the table line's order)
    expect(out.split('\t')[2]).toBe('booking.created');
  } finally {
    await receiver.close();
  }
});
