// -o csv and --tz as a user runs them (main() in-process against a loopback service): RFC 4180 quoting,
// the header row, dot-path columns, lossless numbers, the formula guard and --csv-raw; times in a
// named zone for table, tsv and csv, JSON left as sent, a bad zone refused.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { runMain } from '../helpers/in-process';

const FIRST = `{"uid":"bk_1","title":"Lunch, with \\"Ann\\"","status":"confirmed","start":"2026-07-01T10:00:00Z","end":"2026-07-01T11:00:00Z","attendee":{"name":"Ann"},"price":12345678901234567890,"delta":-5}`;
const ITEMS = `[
  ${FIRST},
  {"uid":"bk_2","title":"=HYPERLINK(\\"http://evil\\")","status":"+1","start":"2026-01-15T23:30:00Z","end":"2026-01-16T00:00:00Z","attendee":{"name":"@bob"},"price":1.50,"delta":-1},
  {"uid":"bk_3","title":"two\\nlines \\u001b]0;owned\\u0007","status":"-x","start":"2026-03-29T00:30:00Z","end":"2026-03-29T01:30:00Z","attendee":{"name":"Cy"},"price":0,"delta":0}
]`;

let service: { url: string; close(): Promise<void> };
let dir: string;
beforeAll(async () => {
  service = await serve((req, res) => {
    const body = req.url?.startsWith('/api/v1/bookings/bk_1') ? `{"data":${FIRST}}` : `{"data":${ITEMS}}`;
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  dir = mkdtempSync(join(tmpdir(), 'booking-csv-'));
});
afterAll(async () => {
  await service.close();
  rmSync(dir, { recursive: true, force: true });
});

const run = (args: string[], opts: { tty?: boolean; env?: Record<string, string> } = {}) =>
  runMain(args, {
    tty: opts.tty,
    columns: 200,
    env: { BOOKING_CONFIG_DIR: dir, BOOKING_BASE_URL: service.url, BOOKING_API_KEY: 'sk_test_csv', BOOKING_PAGER: '', ...opts.env },
  });

describe('-o csv', () => {
  it('a header row, RFC 4180 quoting, CRLF, the formula guard on text cells', async () => {
    const r = await run(['bookings', 'list', '-o', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(
      'uid,title,status,start,end,attendee\r\n' +
        'bk_1,"Lunch, with ""Ann""",confirmed,2026-07-01T10:00:00Z,2026-07-01T11:00:00Z,Ann\r\n' +
        `bk_2,"'=HYPERLINK(""http://evil"")",'+1,2026-01-15T23:30:00Z,2026-01-16T00:00:00Z,'@bob\r\n` +
        `bk_3,"two\nlines \\x1b]0;owned\\x07",'-x,2026-03-29T00:30:00Z,2026-03-29T01:30:00Z,Cy\r\n`,
    );
  });

  it('--fields: dot paths as the header, numbers with every digit, negative numbers unguarded', async () => {
    const r = await run(['bookings', 'list', '-o', 'csv', '--fields', 'uid,attendee.name,price,delta']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe("uid,attendee.name,price,delta\r\nbk_1,Ann,12345678901234567890,-5\r\nbk_2,'@bob,1.50,-1\r\nbk_3,Cy,0,0\r\n");
  });

  it('--csv-raw: cells as received, no guard', async () => {
    const r = await run(['bookings', 'list', '-o', 'csv', '--csv-raw', '--fields', 'title,status']);
    expect(r.stdout.split('\r\n')[2]).toBe('"=HYPERLINK(""http://evil"")",+1');
  });

  it('--csv-raw without -o csv: exit 2, not a flag silently ignored', async () => {
    const r = await run(['bookings', 'list', '--csv-raw', '-o', 'json']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toBe('error: --csv-raw goes with -o csv (it turns off the formula guard of csv cells).\n');
  });

  it('one record: its dot paths as the header, one row', async () => {
    const r = await run(['bookings', 'get', 'bk_1', '-o', 'csv', '--fields', 'uid,attendee,price']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('uid,attendee.name,price\r\nbk_1,Ann,12345678901234567890\r\n');
  });

  it('a CRLF inside a value stays a line break, a CR alone is escaped; a list of plain values is headed value; an empty bookings list keeps its header', async () => {
    const odd = await serve((req, res) => {
      const data = req.url?.startsWith('/api/v1/bookings?status=cancelled')
        ? []
        : req.url?.startsWith('/api/v1/bookings')
          ? [{ uid: 'a', title: 'line one\r\nline two', status: 'x\ry' }]
          : ['p', 'q'];
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ data }));
    });
    const env = { BOOKING_BASE_URL: odd.url };
    try {
      for (const raw of [[], ['--csv-raw']]) {
        const r = await run(['bookings', 'list', '-o', 'csv', ...raw], { env });
        expect(r.stdout).toBe('uid,title,status,start,end,attendee\r\na,"line one\r\nline two",x\\ry,,,\r\n');
      }
      const values = await run(['api', '/api/v1/values', '--paginate', '-o', 'csv'], { env });
      expect(values.stdout).toBe('value\r\np\r\nq\r\n');
      const empty = await run(['bookings', 'list', '--status', 'cancelled', '-o', 'csv'], { env });
      expect([empty.code, empty.stdout]).toEqual([0, 'uid,title,status,start,end,attendee\r\n']);
      const emptyTsv = await run(['bookings', 'list', '--status', 'cancelled', '-o', 'tsv'], { env });
      expect([emptyTsv.code, emptyTsv.stdout]).toEqual([0, '']);
    } finally {
      await odd.close();
    }
  });

  it('on a terminal the CRLF ends lines and hostile text stays escaped', async () => {
    const r = await run(['bookings', 'list', '-o', 'csv', '--fields', 'title'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('\\x1b]0;owned\\x07');
    expect(r.stdout).not.toContain('\x1b');
    expect(r.stdout.startsWith('title\r\n')).toBe(true);
  });
});

describe('--tz', () => {
  it('table: times in the zone, the header names it', async () => {
    const r = await run(['bookings', 'list', '--tz', 'Asia/Kolkata', '--fields', 'uid,start'], { tty: true });
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^UID\s+START \(Asia\/Kolkata\)$/);
    expect(lines[1]).toMatch(/^bk_1\s+2026-07-01 15:30$/);
    expect(lines[2]).toMatch(/^bk_2\s+2026-01-16 05:00$/);
  });

  it('tsv and csv: ISO 8601 with the zone offset (summer and winter time alike)', async () => {
    const tsv = await run(['bookings', 'list', '-o', 'tsv', '--tz', 'Europe/Berlin', '--fields', 'uid,start']);
    expect(tsv.stdout).toBe('bk_1\t2026-07-01T12:00:00+02:00\nbk_2\t2026-01-16T00:30:00+01:00\nbk_3\t2026-03-29T01:30:00+01:00\n');
    const csv = await run(['bookings', 'list', '-o', 'csv', '--fields', 'uid,end'], { env: { BOOKING_TZ: 'America/New_York' } });
    expect(csv.stdout).toBe(
      'uid,end\r\nbk_1,2026-07-01T07:00:00-04:00\r\nbk_2,2026-01-15T19:00:00-05:00\r\nbk_3,2026-03-28T21:30:00-04:00\r\n',
    );
  });

  it('without a zone, tsv keeps times as received; json and ndjson always do', async () => {
    const tsv = await run(['bookings', 'list', '-o', 'tsv', '--fields', 'start']);
    expect(tsv.stdout.split('\n')[0]).toBe('2026-07-01T10:00:00Z');
    const json = await run(['bookings', 'list', '--json', 'start', '--tz', 'Asia/Tokyo']);
    expect(JSON.parse(json.stdout)[0]).toEqual({ start: '2026-07-01T10:00:00Z' });
    const ndjson = await run(['bookings', 'list', '-o', 'ndjson', '--fields', 'start', '--tz', 'Asia/Tokyo']);
    expect(ndjson.stdout.split('\n')[0]).toBe('{"start":"2026-07-01T10:00:00Z"}');
  });

  it('a record on a terminal names the zone after each time key', async () => {
    const r = await run(['bookings', 'get', 'bk_1', '--tz', 'UTC', '--fields', 'start'], { tty: true });
    expect(r.stdout).toMatch(/start \(UTC\)\s+2026-07-01 10:00/);
  });

  it('an unknown zone is exit 2 with one line; --tz wins over BOOKING_TZ', async () => {
    for (const [args, env] of [
      [['--tz', 'Mars/Olympus'], {}],
      [[], { BOOKING_TZ: 'nowhere' }],
    ] as const) {
      const r = await run(['bookings', 'list', ...args], { env });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/unknown time zone .*local, UTC, an IANA name .* or an offset such as \+05:30/);
    }
    const both = await run(['bookings', 'list', '-o', 'tsv', '--tz', 'utc', '--fields', 'start'], { env: { BOOKING_TZ: 'Asia/Tokyo' } });
    expect(both.stdout.split('\n')[0]).toBe('2026-07-01T10:00:00Z');
  });

  it('a bad BOOKING_TZ does not stop a command that prints text, not records (it shows no times)', async () => {
    for (const args of [['version'], ['config', 'path'], ['completion', 'bash']]) {
      const r = await run(args, { env: { BOOKING_TZ: 'nowhere' } });
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(0);
      expect(r.stderr).toBe('');
    }
  });

  it('an offset (+05:30, -0800, +05) is a zone on every node line; +24:00 is refused', async () => {
    const tsv = await run(['bookings', 'list', '-o', 'tsv', '--tz', '+05:30', '--fields', 'uid,start']);
    expect(tsv.stdout.split('\n')[0]).toBe('bk_1\t2026-07-01T15:30:00+05:30');
    const table = await run(['bookings', 'list', '--tz', '-0800', '--fields', 'uid,start'], { tty: true });
    expect(table.stdout.split('\n').slice(0, 2)).toEqual([
      expect.stringMatching(/^UID\s+START \(UTC-08:00\)$/),
      expect.stringMatching(/^bk_1\s+2026-07-01 02:00$/),
    ]);
    const csv = await run(['bookings', 'list', '-o', 'csv', '--fields', 'start'], { env: { BOOKING_TZ: '+05' } });
    expect(csv.stdout.split('\r\n')[1]).toBe('2026-07-01T15:00:00+05:00');
    const bad = await run(['bookings', 'list', '--tz', '+24:00']);
    expect([bad.code, bad.stdout]).toEqual([2, '']);
    expect(bad.stderr).toMatch(/unknown time zone "\+24:00"/);
  });

  it('times the zone cannot write as ISO 8601 (years 0001-9999, offsets of whole minutes) stay the same instant', async () => {
    const odd = await serve((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          data: [
            // Go's zero time; a year Date.UTC would read as 1950; microseconds; local mean time (+00:53:28).
            { uid: 'a', start: '0001-01-01T00:00:00Z', end: '0050-06-01T12:00:00Z' },
            { uid: 'b', start: '2026-01-12T12:00:00.123456Z', end: '1800-01-01T00:00:00Z' },
            // Past 9999 in the zone: kept as received. A comma before the fraction, as ISO 8601 allows.
            { uid: 'c', start: '9999-12-31T23:59:59Z', end: '2026-01-12T12:00:00,5+01:00' },
          ],
        }),
      ),
    );
    try {
      const r = await run(['bookings', 'list', '-o', 'tsv', '--tz', 'Europe/Berlin', '--fields', 'uid,start,end'], {
        env: { BOOKING_BASE_URL: odd.url },
      });
      expect(r.stdout).toBe(
        [
          'a\t0001-01-01T00:53:00+00:53\t0050-06-01T12:53:00+00:53',
          'b\t2026-01-12T13:00:00.123456+01:00\t1800-01-01T00:53:00+00:53',
          'c\t9999-12-31T23:59:59Z\t2026-01-12T12:00:00.5+01:00',
          '',
        ].join('\n'),
      );
      // West of UTC the zero time would be in year 0000 (1 BC): kept as received.
      const west = await run(['bookings', 'list', '-o', 'tsv', '--tz', 'America/New_York', '--fields', 'start'], {
        env: { BOOKING_BASE_URL: odd.url },
      });
      expect(west.stdout.split('\n')[0]).toBe('0001-01-01T00:00:00Z');
    } finally {
      await odd.close();
    }
  });

  it("the profile's tz (config set tz) applies when neither flag nor env names one", async () => {
    const set = await run(['config', 'set', 'tz', 'Asia/Tokyo']);
    expect(set.code, set.stderr).toBe(0);
    const bad = await run(['config', 'set', 'tz', 'Nowhere/Land']);
    expect(bad.code).toBe(2);
    const r = await run(['bookings', 'list', '-o', 'tsv', '--fields', 'start']);
    expect(r.stdout.split('\n')[0]).toBe('2026-07-01T19:00:00+09:00');
    await run(['config', 'unset', 'tz']);
  });
});
