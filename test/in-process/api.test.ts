// `booking api` as gh api users expect: JSON pretty and lossless, anything else printed as sent (even
// when it starts like JSON), a JSON content type that does not parse reported, and the paging
// overrides with --paginate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultServer, uidsUpTo, type Fault, type FaultServer } from '../helpers/fault-server';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

const bodies: Record<string, Fault> = {
  '/log': { kind: 'status', status: 200, contentType: 'text/plain', body: '[INFO] started\n{not json}\n' },
  '/stream': { kind: 'status', status: 200, contentType: 'application/x-ndjson', body: '{"a":1}\n{"a":2}\n' },
  '/broken': { kind: 'status', status: 200, contentType: 'application/json; charset=utf-8', body: '{"a":' },
  '/problem': { kind: 'status', status: 200, contentType: 'application/problem+json', body: '{"id":12345678901234567890}' },
  '/untyped': { kind: 'status', status: 200, contentType: 'application/octet-stream', body: '{"n":1.50}' },
  '/mixed': { kind: 'status', status: 200, contentType: 'application/json', body: '{"data":[1,"two",{"uid":"bk_1"},[3,4]]}' },
  '/own-value': { kind: 'status', status: 200, contentType: 'application/json', body: '{"data":[1,{"value":7}]}' },
};

describe('api', () => {
  let server: FaultServer;
  const cfg = tempConfigDir();
  const env = () => ({ BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey });
  const api = (...args: string[]) => runMain(['api', ...args], { env: env() });
  beforeAll(async () => {
    server = await startFaultServer({ count: 7, pageSize: 3, faults: (r) => (r.route === 'other' ? bodies[r.path ?? ''] : undefined) });
  });
  afterAll(async () => {
    await server.close();
    cfg.cleanup();
  });

  it('a text body that starts like JSON is printed as sent', async () => {
    const r = await api('/log');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe('[INFO] started\n{not json}\n');
  });

  it('a body that is not JSON with --jq, --json or --fields: exit 1 naming its type, nothing printed for a script to mistake', async () => {
    for (const [args, flag] of [
      [['--jq', '.id'], '--jq'],
      [['--json', 'id,status'], '--fields'],
      [['--json'], '--json'],
    ] as const) {
      const r = await api('/log', ...args);
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        new RegExp(`^error: GET /log: the body is not JSON \\(text/plain, 26 bytes\\), so ${flag} has nothing to work on\\.\n`),
      );
    }
  });

  it('application/x-ndjson is printed as sent', async () => {
    const r = await api('/stream');
    expect([r.code, r.stdout]).toEqual([0, '{"a":1}\n{"a":2}\n']);
  });

  it('a JSON content type whose body is not JSON: exit 1, one line', async () => {
    const r = await api('/broken');
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: GET \/broken: .*not valid JSON/);
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  });

  it('+json types and untyped JSON bodies are pretty-printed, losslessly', async () => {
    expect((await api('/problem')).stdout).toBe('{\n  "id": 12345678901234567890\n}\n');
    expect((await api('/untyped')).stdout).toBe('{\n  "n": 1.50\n}\n');
  });

  it('--paginate with --items-path and --cursor-path', async () => {
    const r = await api('/api/v1/bookings', '--paginate', '--items-path', 'data', '--cursor-path', 'meta.next_cursor', '-o', 'ndjson');
    expect(r.code, r.stderr).toBe(0);
    expect(
      r.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uid: string }).uid),
    ).toEqual(uidsUpTo(7));
  });

  it('--paginate with an --items-path that is not there: exit 1 naming it', async () => {
    const r = await api('/api/v1/bookings', '--paginate', '--items-path', 'meta.items');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--items-path meta.items is not an array');
  });

  it('--paginate failing part-way names a --cursor that api itself resumes from', async () => {
    server.setFaults((r) => (r.route === 'list' && r.page === 1 ? { kind: 'status', status: 500 } : undefined));
    const failed = await api('/api/v1/bookings', '--paginate', '-o', 'ndjson', '--retries', '0');
    expect(failed.code).toBe(1);
    expect(
      failed.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uid: string }).uid),
    ).toEqual(uidsUpTo(3));
    const cursor = /resume with: --cursor (\S+)\n$/.exec(failed.stderr)?.[1];
    expect(cursor, failed.stderr).toBe(server.cursorOf(1));
    server.setFaults((r) => (r.route === 'other' ? bodies[r.path ?? ''] : undefined));
    const rest = await api('/api/v1/bookings', '--paginate', '-o', 'ndjson', '--cursor', cursor!);
    expect(rest.code, rest.stderr).toBe(0);
    expect(
      rest.stdout
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { uid: string }).uid),
    ).toEqual(uidsUpTo(7, 3));
  });

  it('a #fragment is dropped, so -F parameters still reach the query', async () => {
    const before = server.requests.length;
    const r = await api('/log?a=1#part', '-F', 'x=1');
    expect(r.code).toBe(0);
    expect(server.requests.slice(before).map((q) => q.url)).toEqual(['/log?a=1&x=1']);
  });

  it('--paginate -o tsv/csv/table of a list mixing objects and other values: those values in a VALUE column, no empty rows', async () => {
    const tsv = await api('/mixed', '--paginate', '-o', 'tsv');
    expect([tsv.code, tsv.stderr]).toEqual([0, '']);
    expect(tsv.stdout).toBe('\t1\n\ttwo\nbk_1\t\n\t[3,4]\n');
    expect((await api('/mixed', '--paginate', '-o', 'csv')).stdout).toBe('uid,value\r\n,1\r\n,two\r\nbk_1,\r\n,"[3,4]"\r\n');
    expect((await api('/mixed', '--paginate', '-o', 'table')).stdout.split('\n')[0]).toMatch(/^UID\s+VALUE$/);
  });

  it('--fields value picks that VALUE column (and is listed among the fields); a `value` field of the objects wins', async () => {
    expect((await api('/mixed', '--paginate', '-o', 'csv', '--fields', 'value,uid')).stdout).toBe(
      'value,uid\r\n1,\r\ntwo,\r\n,bk_1\r\n"[3,4]",\r\n',
    );
    expect((await api('/mixed', '--paginate', '-o', 'tsv', '--fields', 'value')).stdout).toBe('1\ntwo\n\n[3,4]\n');
    const table = await api('/mixed', '--paginate', '-o', 'table', '--fields', 'value');
    expect(table.stdout.split('\n').slice(0, 3)).toEqual(['VALUE', '1', 'two']);
    const typo = await api('/mixed', '--paginate', '-o', 'tsv', '--fields', 'valeu');
    expect([typo.code, typo.stderr]).toEqual([2, 'error: no item has the field "valeu"; available fields: value, uid.\n']);
    // Objects with a field named value: --fields value means that field.
    const own = await api('/own-value', '--paginate', '-o', 'tsv', '--fields', 'value');
    expect(own.stdout).toBe('\n7\n');
  });

  it('--items-path without --paginate is a usage error', async () => {
    const r = await api('/api/v1/me', '--items-path', 'data');
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --items-path goes with --paginate.\n');
  });
});
