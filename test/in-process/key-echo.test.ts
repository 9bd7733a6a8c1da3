// A server that echoes the key back, exactly, in another case, or cut: no form of it reaches any
// output (records in every format, errors, the resume hint's cursor). Any run of 12 or more of its
// characters, in any case, counts as the key.
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { KEY, envFor, expectNoLeaks, runHere, show, startServer } from '../helpers/hardening-kit';

/** Every form a server might echo: exact, upper and lower case, one character cut, a 12-character middle. */
const ECHOES = [KEY, KEY.toUpperCase(), KEY.toLowerCase(), KEY.slice(0, -1), KEY.slice(1), KEY.slice(5, 17).toUpperCase()];

/** Any 12 consecutive characters of the key, in any case, anywhere in the text. */
function expectNoFormOfKey(text: string, what: string): void {
  const lower = text.toLowerCase();
  for (let i = 0; i + 12 <= KEY.length; i++) {
    expect(lower.includes(KEY.slice(i, i + 12).toLowerCase()), `${what} shows ${KEY.slice(i, i + 12)}…: ${text}`).toBe(false);
  }
}

const echoRecord = JSON.stringify(Object.fromEntries(ECHOES.map((e, i) => [`echo${i}`, `key=${e};`])));

/** The key encoded inside longer texts (issue 33): base64 at each alignment, base64url, hex in both cases. */
const ENCODED = [
  Buffer.from(`user:${KEY}`).toString('base64'),
  Buffer.from(`Bearer ${KEY}`).toString('base64'),
  Buffer.from(KEY).toString('base64'),
  Buffer.from(`ab${KEY}`).toString('base64url'),
  Buffer.from(KEY).toString('hex'),
  Buffer.from(KEY).toString('hex').toUpperCase(),
];

/** No encoded form's middle (16 characters that only the key decides) in the text. */
function expectNoEncodedKey(text: string, what: string): void {
  for (const form of ENCODED) expect(text.includes(form.slice(4, 20)), `${what} shows ${form}: ${text}`).toBe(false);
}

describe('a server that echoes the key', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => envFor(server.url, cfg.dir);
  afterEach(() => server.close());
  afterAll(() => {
    cfg.cleanup();
    expectNoLeaks('key-echo');
  });

  describe('in records', () => {
    beforeEach(async () => {
      server = await startServer({
        count: 3,
        rawRecord: echoRecord,
        rawItem: (i) => `{"uid":"bk_${i}","note":${JSON.stringify(ECHOES.join(' '))}}`,
      });
    });

    it.each(['json', 'ndjson', 'tsv', 'table'])('whoami, bookings get/list -o %s: masked', async (format) => {
      for (const args of [['whoami'], ['bookings', 'get', 'bk_1'], ['bookings', 'list', '--fields', 'uid,note']]) {
        const r = await runHere([...args, '-o', format], { env: env() });
        expect(r.code, show(r)).toBe(0);
        expect(r.stdout).toContain('****');
        expectNoFormOfKey(r.stdout + r.stderr, `${args.join(' ')} -o ${format}`);
      }
    });

    it('api, printing the body as sent: masked', async () => {
      for (const args of [
        ['api', '/api/v1/me'],
        ['api', '/api/v1/bookings', '--paginate', '-o', 'tsv'],
      ]) {
        const r = await runHere(args, { env: env() });
        expect(r.code, show(r)).toBe(0);
        expect(r.stdout).toContain('****');
        expectNoFormOfKey(r.stdout + r.stderr, args.join(' '));
      }
    });

    it('text around the key is kept', async () => {
      const r = await runHere(['whoami', '-o', 'json'], { env: env() });
      expect(JSON.parse(r.stdout)).toMatchObject({ echo0: 'key=****;', echo1: 'key=****;', echo3: 'key=****;', echo5: 'key=****;' });
    });
  });

  describe('as a field name', () => {
    beforeEach(async () => {
      server = await startServer({ count: 3, rawRecord: '{}', rawItem: (i) => `{"uid":"bk_${i}",${JSON.stringify(KEY)}:"x"}` });
    });

    it("a table's header (words cut at _ and case changes, upper-cased) and the left-out note: masked", async () => {
      // Without the separators a header puts in: no run of 12 of the key's letters in any case.
      const squash = (text: string) => text.replace(/[\s_-]+/g, '').toLowerCase();
      const key = squash(KEY);
      for (const [args, columns] of [
        [['api', '/api/v1/bookings', '--paginate', '-o', 'table'], 200],
        [['bookings', 'list', '--fields', `uid,${KEY}`, '-o', 'table'], 200],
        [['api', '/api/v1/bookings', '--paginate', '-o', 'table', '--fields', `uid,uid,uid,uid,uid,uid,uid,uid,${KEY}`], 40],
      ] as const) {
        const r = await runHere([...args], { env: env(), columns });
        expect(r.code, show(r)).toBe(0);
        expect(r.stdout + r.stderr).toContain('****');
        const out = squash(r.stdout + r.stderr);
        for (let i = 0; i + 12 <= key.length; i++)
          expect(out.includes(key.slice(i, i + 12)), `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(false);
      }
    });
  });

  describe('encoded inside longer texts', () => {
    beforeEach(async () => {
      const note = JSON.stringify(ENCODED.join(' '));
      server = await startServer({ count: 3, rawRecord: `{"auth":${note}}`, rawItem: (i) => `{"uid":"bk_${i}","note":${note}}` });
    });

    it.each(['json', 'ndjson', 'tsv', 'table'])('whoami, bookings list -o %s: masked', async (format) => {
      for (const args of [['whoami'], ['bookings', 'list', '--fields', 'uid,note']]) {
        const r = await runHere([...args, '-o', format], { env: env(), columns: 4000 });
        expect(r.code, show(r)).toBe(0);
        expect(r.stdout).toContain('****');
        expectNoEncodedKey(r.stdout + r.stderr, `${args.join(' ')} -o ${format}`);
      }
    });
  });

  it('encoded, in an error message', async () => {
    server = await startServer({
      faults: () => ({ kind: 'status', status: 400, body: JSON.stringify({ message: `bad auth ${ENCODED.join(', ')}` }) }),
    });
    const r = await runHere(['whoami', '--retries', '0'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('bad auth ');
    expectNoEncodedKey(r.stderr, 'the error');
  });

  it('in an error message', async () => {
    server = await startServer({
      faults: () => ({ kind: 'status', status: 400, body: JSON.stringify({ message: `bad key ${ECHOES.join(', ')}` }) }),
    });
    const r = await runHere(['whoami', '--retries', '0'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: GET \/api\/v1\/me: 400 Bad Request: bad key \*\*\*\*/);
    expectNoFormOfKey(r.stderr, 'the error');
  });

  it('in a cursor that the resume hint repeats', async () => {
    server = await startServer({
      count: 40,
      pageSize: 20,
      nextOverride: (page) => (page === 0 ? { next: `c_${KEY.toUpperCase()}` } : undefined),
      faults: (q) => (q.route === 'list' && Number.isNaN(q.page) ? { kind: 'status', status: 500 } : undefined),
    });
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--retries', '0'], { env: env() });
    expect(r.code).toBe(1);
    expect(r.stdout.trimEnd().split('\n')).toHaveLength(20);
    expect(r.stderr).toContain('--cursor c_****');
    expectNoFormOfKey(r.stderr, 'the resume hint');
  });

  it('--debug lines are masked too', async () => {
    server = await startServer({
      nextOverride: () => ({ next: KEY.slice(2) }),
      count: 40,
      pageSize: 20,
      faults: (q) => (Number.isNaN(q.page) ? { kind: 'status', status: 500 } : undefined),
    });
    const r = await runHere(['bookings', 'list', '-o', 'ndjson', '--retries', '0', '--debug'], { env: env() });
    expect(r.code).toBe(1);
    expectNoFormOfKey(r.stdout + r.stderr, 'the debug log');
  });
});
