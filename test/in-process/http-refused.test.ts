// A refused connection to this machine (a sandbox not started, or stopped): said at once, not after
// three retries, and with the way out (start the sandbox when the address is its default, else check
// the base URL); and a base URL that repeats the API's /api/v1 prefix, named as such.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { networkFailure } from '../../src/http/failures';
import { isRetryableError } from '../../src/http/retry';
import { runMain } from '../helpers/in-process';
import { serve } from '../../src/sandbox/core';
import { tempConfigDir } from '../helpers/cli';

/** A loopback port that nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });

describe('a refused connection', () => {
  it('is not retried on loopback, and still is elsewhere', () => {
    expect(isRetryableError(refused, new URL('http://127.0.0.1:4010/api/v1/me'))).toBe(false);
    expect(isRetryableError(refused, new URL('http://localhost:8080/'))).toBe(false);
    expect(isRetryableError(refused, new URL('http://[::1]:8080/'))).toBe(false);
    expect(isRetryableError(refused, new URL('https://api.example.com/'))).toBe(true);
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    expect(isRetryableError(reset, new URL('http://127.0.0.1:4010/'))).toBe(true);
  });

  it("asks whether the sandbox is running when the base URL is the sandbox's default address", () => {
    for (const base of ['http://127.0.0.1:4010', 'http://localhost:4010']) {
      const e = networkFailure('GET', new URL(`${base}/api/v1/me`), refused, 0, {});
      expect(e.message).toMatch(/^GET \/api\/v1\/me: cannot connect to .*:4010 \(ECONNREFUSED\)$/);
      expect(e.hint).toBe('is `booking sandbox` running? Start it in another terminal.');
    }
    // Any other address: a hint to check the base URL, as login gives.
    expect(networkFailure('GET', new URL('http://127.0.0.1:4011/api/v1/me'), refused, 0, {}).hint).toBe(
      'is the service at http://127.0.0.1:4011 running? Check the base URL (booking config get baseUrl, or --base-url).',
    );
    // BOOKING_BASE_URL another origin (a --base-url won): the profile's check, as above.
    const other = { BOOKING_BASE_URL: 'http://127.0.0.1:9999' };
    expect(networkFailure('GET', new URL('http://127.0.0.1:4011/api/v1/me'), refused, 0, other).hint).toContain(
      'booking config get baseUrl',
    );
  });

  it('whoami against a closed loopback port fails at once: one request, exit 1', async () => {
    const port = await closedPort();
    const cfg = tempConfigDir();
    try {
      const r = await runMain(['whoami', '--debug', '--retries', '3'], {
        env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: `http://127.0.0.1:${port}`, BOOKING_API_KEY: 'sk_test_x' },
      });
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`cannot connect to 127.0.0.1:${port} (ECONNREFUSED)\n`);
      expect(r.stderr).not.toMatch(/retry|retries/i);
      // The next step, as login gives one, naming where this base URL came from.
      expect(r.stderr).toContain(
        `\nis the service at http://127.0.0.1:${port} running? It is the base URL BOOKING_BASE_URL sets (unset it for the profile's, or give --base-url).`,
      );
    } finally {
      cfg.cleanup();
    }
  });
});

describe('a base URL that ends in /api/v1', () => {
  it('the 404 of /api/v1/api/v1/me says which base URL to use', async () => {
    const service = await serve((_req, res) => res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}'));
    const cfg = tempConfigDir();
    try {
      const r = await runMain(['whoami'], {
        env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: `${service.url}/api/v1`, BOOKING_API_KEY: 'sk_test_x' },
      });
      expect(r.code).toBe(4);
      expect(r.stderr).toContain('GET /api/v1/api/v1/me: 404');
      expect(r.stderr).toContain(
        `the base URL ends in /api/v1, which booking adds to every path itself: use ${service.url} (booking config set baseUrl ${service.url}).`,
      );
      // login says the same, and saves nothing.
      const login = await runMain(['login', '--base-url', `${service.url}/api/v1`, '--with-key'], {
        env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_KEY_STORE: 'file' },
        stdin: 'sk_test_x\n',
      });
      expect(login.code).toBe(4);
      expect(login.stderr).toContain('the key was not saved');
      expect(login.stderr).toContain(`the base URL ends in /api/v1, which booking adds to every path itself: use ${service.url}`);
    } finally {
      cfg.cleanup();
      await service.close();
    }
  });
});
