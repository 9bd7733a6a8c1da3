// A long listing (600 bookings over 30 pages) through a server that fails on many pages for a try or
// three — 429 with Retry-After, 502, 503, 504, a reset mid-body — must come out whole: every item
// exactly once, in order, exit 0, and nothing on stderr but what --debug asks for.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uidsUpTo, type Fault, type FaultRequest, type FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { envFor, expectNoLeaks, expectWholeNdjson, expectWholeTsv, runHere, show, startServer } from '../helpers/hardening-kit';

const COUNT = 600;
const ALL = uidsUpTo(COUNT);
const status = (code: number, retryAfter?: string): Fault => ({ kind: 'status', status: code, retryAfter });

/**
 * The full script: page → the faults of its first tries, in order. Retry-After 0 keeps most waits at
 * nothing; 502/504 without it and the resets take the client's own backoff; one 429 asks for 1 s.
 */
const HEAVY: Record<number, Fault[]> = {
  1: [status(429, '0')],
  3: [status(502)],
  5: [status(503, '0')],
  7: [status(504)],
  9: [{ kind: 'reset' }],
  11: [status(429, '0'), status(502, '0'), status(503, '0')],
  13: [{ kind: 'reset' }, status(504, '0')],
  15: [status(429, '1')],
  20: [status(503, '0')],
  24: [status(502, '0')],
  28: [status(429, new Date(Date.now() - 5000).toUTCString())], // an HTTP date already past
};

/** The quick script for the other formats: one of each kind, no waits beyond a reset's backoff. */
const LIGHT: Record<number, Fault[]> = {
  2: [status(429, '0')],
  6: [status(502, '0')],
  10: [status(503, '0')],
  14: [status(504, '0')],
  18: [{ kind: 'reset' }],
};

const faultCount = (script: Record<number, Fault[]>) => Object.values(script).flat().length;
const scripted = (script: Record<number, Fault[]>) => (r: FaultRequest) => (r.route === 'list' ? script[r.page]?.[r.attempt] : undefined);

describe('transient faults during a 600-item listing', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => envFor(server.url, cfg.dir);
  beforeAll(async () => {
    server = await startServer({ count: COUNT, pageSize: 20 });
  });
  afterAll(async () => {
    await server.close();
    cfg.cleanup();
    expectNoLeaks('transient-faults');
  });

  /** Fresh attempt counters for each run: a new server state per scenario. */
  async function restart(script: Record<number, Fault[]>) {
    await server.close();
    server = await startServer({ count: COUNT, pageSize: 20, faults: scripted(script) });
  }

  it(`ndjson survives ${faultCount(HEAVY)} faults on 11 pages: every item once, in order`, async () => {
    await restart(HEAVY);
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--retries', '3'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code, show(r)).toBe(0);
    expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(ALL);
    // Each page answered in full exactly once; every scripted fault was actually served.
    const served = server.requests.filter((q) => q.fault === undefined);
    expect(served.map((q) => q.page)).toEqual(Array.from({ length: 30 }, (_, p) => p));
    expect(server.requests.filter((q) => q.fault !== undefined)).toHaveLength(faultCount(HEAVY));
    // Retry-After: 1 was honoured, not cut short.
    const [asked, again] = server.requests.filter((q) => q.page === 15);
    expect(again!.at - asked!.at).toBeGreaterThanOrEqual(950);
  });

  it('tsv survives them: 600 whole lines of 3 columns, in order', async () => {
    await restart(LIGHT);
    const r = await runHere(['bookings', 'list', '--fields', 'uid,status,attendee.email'], { env: env() });
    expect(r.stderr).toBe('');
    expect(r.code, show(r)).toBe(0);
    expect(expectWholeTsv(r.stdout, 3).map((row) => row[0])).toEqual(ALL);
  });

  it('--json survives them: one array of all 600', async () => {
    await restart(LIGHT);
    const r = await runHere(['bookings', 'list', '--json'], { env: env() });
    expect(r.code, show(r)).toBe(0);
    expect((JSON.parse(r.stdout) as { uid: string }[]).map((b) => b.uid)).toEqual(ALL);
  });

  it('--debug shows each retry on stderr, the data is the same and the key is not there', async () => {
    await restart(LIGHT);
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--debug'], { env: env() });
    expect(r.code, show(r)).toBe(0);
    expect(expectWholeNdjson(r.stdout).map((b) => b.uid)).toEqual(ALL);
    expect(r.stderr.match(/retry/gi)?.length ?? 0).toBeGreaterThanOrEqual(faultCount(LIGHT));
    expect(r.stderr).not.toMatch(/authorization|bearer/i);
  });

  it('api --paginate and --limit page through the same faults', async () => {
    await restart(LIGHT);
    const api = await runHere(['api', '/api/v1/bookings', '--paginate', '-o', 'ndjson'], { env: env() });
    expect(api.code, show(api)).toBe(0);
    expect(expectWholeNdjson(api.stdout).map((b) => b.uid)).toEqual(ALL);
    await restart(LIGHT);
    const limited = await runHere(['bookings', 'list', '-o', 'ndjson', '--limit', '250'], { env: env() });
    expect(limited.code, show(limited)).toBe(0);
    expect(expectWholeNdjson(limited.stdout).map((b) => b.uid)).toEqual(uidsUpTo(250));
  });
});
