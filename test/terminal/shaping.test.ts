// gh's output habits, as a script sees them: --json FIELDS, --jq with jq's own semantics (big
// integers kept, strings raw, syntax errors as usage errors), --fields typos, -L, -s, bookings view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { runCliTty, tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

let server: ShapeServer;
const cfg = tempConfigDir();
const env = () => ({ BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey });
const booking = (args: string[]) => runMain(args, { env: env() });

beforeAll(async () => {
  server = await startShapeServer({ shape: 'data-meta', count: 9, maxPage: 4 });
});
afterAll(async () => {
  await server.close();
  cfg.cleanup();
});

describe('--json [FIELDS]', () => {
  it('with a list prints only those fields, in every place the word may come', async () => {
    for (const args of [
      ['bookings', 'list', '-L', '2', '--json', 'uid,status'],
      ['--json', 'uid,status', 'bookings', 'list', '-L', '2'],
      ['bookings', 'list', '--json=uid,status', '-L', '2'],
    ]) {
      const r = await booking(args);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([
        { uid: 'bk_0000', status: 'pending' },
        { uid: 'bk_0001', status: 'confirmed' },
      ]);
    }
  });

  it('alone before a command or an argument still means all fields', async () => {
    const all = await booking(['--json', 'bookings', 'list', '-L', '1']);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)[0]).toHaveProperty('attendee');
    const get = await booking(['bookings', 'get', '--json', 'bk_0003']);
    expect(get.code).toBe(0);
    expect(JSON.parse(get.stdout).uid).toBe('bk_0003');
    const fields = await booking(['bookings', 'view', 'bk_0003', '--json', 'uid']);
    expect(fields.stdout).toBe('{\n  "uid": "bk_0003"\n}\n');
  });

  it('one field before the command is fields when a command name follows it', async () => {
    const r = await booking(['--json', 'uid', 'bookings', 'get', 'bk_0003']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('{\n  "uid": "bk_0003"\n}\n');
  });

  it('and --fields together is a usage error', async () => {
    const r = await booking(['bookings', 'list', '--json', 'uid', '--fields', 'status']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: .*--fields.*\n$/);
  });
});

describe('--jq', () => {
  it('filters with jq: strings raw, one per line', async () => {
    const r = await booking(['bookings', 'list', '-L', '3', '--jq', '.[].uid']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('bk_0000\nbk_0001\nbk_0002\n');
  });

  it('keeps big integers that jq passes through, compact when piped', async () => {
    const r = await booking(['bookings', 'list', '-L', '2', '--jq', '.[] | {id, uid}']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('{"id":9007199254740993,"uid":"bk_0000"}\n{"id":9007199254740994,"uid":"bk_0001"}\n');
  });

  it('real jq language: select, map, length, @tsv', async () => {
    const r = await booking(['bookings', 'list', '--jq', 'map(select(.status == "cancelled")) | length']);
    expect(r.stdout).toBe('2\n');
    const tsv = await booking(['bookings', 'get', 'bk_0001', '--jq', '[.uid, .attendee.name] | @tsv']);
    expect(tsv.stdout).toBe('bk_0001\tPerson 0001\n');
  });

  it('works on api and event-types, and after --json FIELDS', async () => {
    const api = await booking(['api', '/api/v1/me', '--jq', '.data.email']);
    expect(api.stdout).toBe('owner@example.com\n');
    const types = await booking(['event-types', '--jq', '.[].slug']);
    expect(types.stdout).toBe('30min\n60min\n');
    const both = await booking(['bookings', 'list', '-L', '1', '--json', 'uid', '--jq', '.[0] | keys']);
    expect(both.stdout).toBe('["uid"]\n');
  });

  it('a syntax error is exit 2 with one line, before any request', async () => {
    const before = server.requests.length;
    const r = await booking(['bookings', 'list', '--jq', '.[] |']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: --jq: syntax error[^\n]*\n$/);
    expect(server.requests.length - before).toBeLessThanOrEqual(1);
  });

  it("a runtime error is exit 1 with jq's message", async () => {
    const r = await booking(['bookings', 'list', '-L', '1', '--jq', 'error("boom")']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('error: --jq: boom\n');
  });

  it('with another output format is a usage error', async () => {
    const r = await booking(['bookings', 'list', '-o', 'tsv', '--jq', '.']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('error: --jq conflicts with --output tsv.\n');
  });
});

describe('--fields naming a field no item has', () => {
  it('is a usage error listing the available fields, nothing on stdout', async () => {
    for (const args of [
      ['bookings', 'list', '--fields', 'uid,stauts'],
      ['bookings', 'list', '--json', 'uid,stauts'],
      ['bookings', 'get', 'bk_0001', '--fields', 'stauts'],
    ]) {
      const r = await booking(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(
        /^error: no item has the field "stauts"; available fields: uid, id, title, status, start, end, attendee, attendee\.name, attendee\.email\.\n$/,
      );
    }
  });
});

describe('short options and aliases', () => {
  it('-L is --limit, -s is --status (sent as the query)', async () => {
    const before = server.requests.length;
    const r = await booking(['bookings', 'list', '-s', 'confirmed', '-L', '2', '--json', 'uid']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toHaveLength(2);
    expect(server.requests[before]!.url).toContain('status=confirmed');
  });

  it('a status outside the known ones is passed on to the service', async () => {
    const before = server.requests.length;
    const r = await booking(['bookings', 'list', '--status', 'no_show', '-L', '1', '--json', 'uid']);
    expect(r.code).toBe(0);
    expect(server.requests[before]!.url).toContain('status=no_show');
  });
});

describe('on a terminal', () => {
  it('the table names the time zone and says which columns it left out at 80 columns', async () => {
    const r = await runCliTty(['bookings', 'list'], { env: { ...env(), TZ: 'Europe/London', NO_COLOR: '1' }, columns: 80 });
    expect(r.code).toBe(0);
    // The header starts a line, or follows the progress line's erasure (a slow first page shows one).
    expect(r.output).toMatch(/(^|\n|\r\x1b\[2K)UID\s+TITLE\s+STATUS\s+START \(Europe\/London\) {2}/);
    expect(r.output).toMatch(/note: [A-Z, ]*ATTENDEE left out to fit 80 columns; -o tsv or a wider terminal shows (it|them)\.\n/);
  });

  it('--jq indents objects for a reader', async () => {
    const r = await runCliTty(['bookings', 'get', 'bk_0001', '--jq', '{uid, status}'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.output).toBe('{\n  "uid": "bk_0001",\n  "status": "confirmed"\n}\n');
  });
});
