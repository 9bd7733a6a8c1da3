// --timeout bounds the whole exchange, body included, for every command that sends: a peer that
// answers at once and then trickles its body forever must not hold the command.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempConfigDir } from '../helpers/cli';
import { KEY, expectNoLeaks, expectNoStack, runHere, show } from '../helpers/hardening-kit';

describe('a peer that answers 200 and then streams forever', () => {
  let server: Server;
  let url: string;
  const open = new Set<ServerResponse>();
  const cfg = tempConfigDir();
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":[');
      open.add(res);
      // A byte now and then keeps any idle timer from ever firing.
      const tick = setInterval(() => res.write(' '), 100);
      res.on('close', () => (clearInterval(tick), open.delete(res)));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const res of open) res.destroy();
    await new Promise((resolve) => server.close(resolve));
    cfg.cleanup();
    expectNoLeaks('whole-timeout');
  });

  it('webhook send --timeout 0.2: exit 1 at its timeout, one line', async () => {
    const r = await runHere(['webhook', 'send', `${url}/hooks`, '--event', 'booking.created', '--timeout', '0.2'], {
      env: { BOOKING_WEBHOOK_SECRET: 's3cret' },
    });
    expect(r.signal, 'ended by itself, not by the test').toBeNull();
    expect(r.code, show(r)).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`error: ${url}: no complete answer within 0.2s (--timeout).\n`);
  });

  it.each(['whoami', 'bookings list', 'api /api/v1/me'])('%s --timeout 0.2: exit 1 at its timeout', async (command) => {
    const r = await runHere([...command.split(' '), '--timeout', '0.2', '--retries', '0'], {
      env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: url, BOOKING_API_KEY: KEY },
    });
    expect(r.signal).toBeNull();
    expect(r.code, show(r)).toBe(1);
    expect(r.stderr).toMatch(/no response within 0.2s/);
    expectNoStack(r.stderr);
  });
});
