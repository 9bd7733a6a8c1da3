// The key goes to the base URL's origin and nowhere else: not after a redirect, not to a next-page link
// on another origin (another port, another host name for the same machine), not to a --cursor URL, and
// not over plain http:// to a host that is not loopback. Nor is it ever printed, --debug included
// (the kit counts every run's output).
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOtherOrigin, type Fault, type FaultServer, type OtherOrigin } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { KEY, envFor, expectNoLeaks, expectNoStack, expectWholeNdjson, runHere, show, startServer } from '../helpers/hardening-kit';

afterAll(() => expectNoLeaks('key-safety'));

describe('the key stays on its origin', () => {
  let server: FaultServer;
  let other: OtherOrigin;
  const cfg = tempConfigDir();
  const env = (extra: Record<string, string> = {}) => envFor(server.url, cfg.dir, extra);
  beforeEach(async () => {
    [server, other] = await Promise.all([startServer({ count: 60, pageSize: 20 }), startOtherOrigin()]);
  });
  afterEach(async () => {
    // Whatever the case, nothing carrying a key reached the other origin.
    expect(other.requests.filter((q) => q.authorization !== undefined)).toEqual([]);
    await Promise.all([server.close(), other.close()]);
  });
  afterAll(() => cfg.cleanup());

  describe('redirects to another origin are not followed', () => {
    it.each([301, 302, 303, 307, 308])('%i on a list: exit 1, naming the origin', async (status) => {
      server.setFaults((r) => (r.route === 'list' ? { kind: 'redirect', status, location: `${other.url}/api/v1/bookings` } : undefined));
      const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--debug'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`${other.url} is not the base URL's origin`);
      expect(r.stderr).not.toMatch(/authorization|bearer/i);
      expect(other.requests).toEqual([]);
    });

    it('on bookings get and api, too; a same-origin redirect is followed', async () => {
      const away: Fault = { kind: 'redirect', status: 307, location: `${other.url}/api/v1/me` };
      server.setFaults((r) => (r.route === 'get' ? away : r.route === 'other' ? { kind: 'redirect', location: '/api/v1/me' } : undefined));
      const get = await runHere(['bookings', 'get', 'bk_0001'], { env: env() });
      expect(get.code, show(get)).toBe(1);
      expect(get.stderr).toContain(other.url);
      expectNoStack(get.stderr);
      const same = await runHere(['api', '/elsewhere'], { env: env() });
      expect(same.code, show(same)).toBe(0);
      expect(same.stdout).toContain('Fault Owner');
      expect(server.requests.map((q) => q.authorization)).toEqual(server.requests.map(() => `Bearer ${KEY}`));
      expect(other.requests).toEqual([]);
    });
  });

  describe('next-page links to another origin are refused after the page in hand', () => {
    const cases: [string, (o: OtherOrigin, s: FaultServer) => { next?: string; link?: string }][] = [
      ['an absolute next URL on another port', (o) => ({ next: `${o.url}/api/v1/bookings?cursor=x` })],
      ['a Link header to another port', (o) => ({ link: `${o.url}/api/v1/bookings?cursor=x` })],
      ['a protocol-relative Link', (o) => ({ link: `//${new URL(o.url).host}/api/v1/bookings?cursor=x` })],
      ['the same port under another host name', (_o, s) => ({ next: `http://localhost:${new URL(s.url).port}/api/v1/bookings?cursor=x` })],
    ];
    it.each(cases)('%s', async (_what, target) => {
      await server.close();
      server = await startServer({ count: 60, pageSize: 20, nextOverride: (p) => (p === 1 ? target(other, server) : undefined) });
      const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--debug'], { env: env() });
      expect(r.code, show(r)).toBe(1);
      expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toHaveLength(40);
      expect(r.stderr).toMatch(/is not the base URL's origin .*not sending your API key there/);
      expect(other.requests).toEqual([]);
      expect(server.requests.filter((q) => !q.host.startsWith('127.0.0.1'))).toEqual([]);
    });

    it('--cursor and api given a URL on another origin: refused before any request', async () => {
      const cursor = await runHere(['bookings', 'list', '--cursor', `${other.url}/api/v1/bookings?cursor=x`], { env: env() });
      expect(cursor.code, show(cursor)).toBe(1);
      expect(cursor.stderr).toContain(other.url);
      const api = await runHere(['api', `${other.url}/api/v1/me`], { env: env() });
      expect(api.code, show(api)).toBe(1);
      expect(api.stdout).toBe('');
      expect(other.requests).toEqual([]);
      expect(server.requests).toEqual([]);
      // Plain http:// to another (non-loopback) host: the origin rule, not a hint at --allow-http,
      // which would not make booking send the key there.
      for (const extra of [[], ['--allow-http']]) {
        const far = await runHere(['api', 'http://far.example.com/x', ...extra], { env: env() });
        expect(far.code, show(far)).toBe(1);
        expect(far.stderr).toContain("http://far.example.com is not the base URL's origin");
        expect(far.stderr).not.toContain('--allow-http');
      }
    });
  });

  it('--debug (and BOOKING_DEBUG=1) on every command that sends the key: requests shown, the key not', async () => {
    const cfgEnv = { BOOKING_CONFIG_DIR: cfg.dir };
    const login = await runHere(['login', '--base-url', server.url, '--with-key', '--debug'], { env: cfgEnv, stdin: `${KEY}\n` });
    expect(login.code, show(login)).toBe(0);
    expect(login.stderr).toContain('> GET');
    for (const args of [['whoami'], ['bookings', 'list'], ['bookings', 'get', 'bk_0001'], ['event-types'], ['api', '/api/v1/me']]) {
      const flag = await runHere([...args, '--debug'], { env: cfgEnv });
      expect(flag.code, show(flag)).toBe(0);
      expect(flag.stderr).toMatch(/^> GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\//m);
      expect(flag.stderr).not.toMatch(/authorization|bearer/i);
      const envVar = await runHere(args, { env: { ...cfgEnv, BOOKING_DEBUG: '1' } });
      expect(envVar.stderr).toContain('> GET');
    }
  });

  it('a 401 names the problem, not the key', async () => {
    await server.close();
    server = await startServer({ apiKey: 'sk_something_else_entirely' });
    const r = await runHere(['bookings', 'list', '--debug'], { env: env() });
    expect(r.code, show(r)).toBe(3);
    expect(r.stderr).toContain('401 Unauthorized: invalid API key');
  });
});

describe('plain http:// to a host that is not loopback', () => {
  const cfg = tempConfigDir();
  afterAll(() => cfg.cleanup());

  // 192.0.2.0/24 is TEST-NET-1 (never routed); *.example never resolves. With --timeout 20, any attempt
  // to connect would take far longer than the refusal does.
  it.each([
    ['--base-url', ['--base-url', 'http://192.0.2.1'], {}],
    ['BOOKING_BASE_URL', [], { BOOKING_BASE_URL: 'http://192.0.2.1:8080/v1' }],
    ['a name that only looks loopback', ['--base-url', 'http://127.0.0.1.example'], {}],
    ['an IPv6 literal', ['--base-url', 'http://[2001:db8::1]'], {}],
  ] as [string, string[], Record<string, string>][])('%s: exit 2 at once, saying why', async (_what, args, extra) => {
    const started = Date.now();
    const r = await runHere(['bookings', 'list', '--timeout', '20', ...args], {
      env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: KEY, ...extra },
    });
    expect(Date.now() - started).toBeLessThan(5000); // far below --timeout 20
    expect(r.code, show(r)).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: refusing plain http:\/\/ to .*: your API key would travel in clear text/);
    expect(r.stderr).toContain('--allow-http');
    expectNoStack(r.stderr);
  });

  it('login and a saved profile are held to the same rule', async () => {
    const started = Date.now();
    const login = await runHere(['login', '--base-url', 'http://192.0.2.1', '--with-key', '--timeout', '20'], {
      env: { BOOKING_CONFIG_DIR: cfg.dir },
      stdin: `${KEY}\n`,
    });
    expect(login.code, show(login)).toBe(2);
    expect(login.stderr).toMatch(/refusing plain http:\/\//);
    const saved = await runHere(['config', 'set', 'baseUrl', 'http://192.0.2.1'], { env: { BOOKING_CONFIG_DIR: cfg.dir } });
    if (saved.code === 0) {
      const list = await runHere(['bookings', 'list', '--timeout', '20'], { env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: KEY } });
      expect(list.code, show(list)).toBe(2);
      expect(list.stderr).toMatch(/refusing plain http:\/\//);
    } else {
      expect(saved.code, show(saved)).toBe(2);
    }
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('https:// is not refused (it fails later, on the network, not as a usage error)', async () => {
    const r = await runHere(['bookings', 'list', '--timeout', '0.3', '--retries', '0', '--base-url', 'https://127.0.0.1:9'], {
      env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_API_KEY: KEY },
    });
    expect(r.code, show(r)).toBe(1);
  });
});
