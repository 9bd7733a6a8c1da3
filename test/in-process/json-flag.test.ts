// `--json FIELDS` as users type it in a hurry: a trailing comma, spaces after the commas, the list
// before a positional. Read as meant; when the words still do not fit, the error names --json.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startShapeServer, type ShapeServer } from '../helpers/shape-server';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

let server: ShapeServer;
const cfg = tempConfigDir();
const booking = (args: string[]) =>
  runMain(args, { env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: server.url, BOOKING_API_KEY: server.apiKey } });

beforeAll(async () => {
  server = await startShapeServer({ shape: 'data-meta', count: 9, maxPage: 4 });
});
afterAll(async () => {
  await server.close();
  cfg.cleanup();
});

describe('--json with a list typed loosely', () => {
  it('takes a trailing comma and spaces after the commas', async () => {
    for (const args of [
      ['bookings', 'list', '-L', '1', '--json', 'uid,status,'],
      ['bookings', 'list', '-L', '1', '--json', 'uid, status'],
      ['bookings', 'list', '--json', ' uid , status ', '-L', '1'],
      ['--json', 'uid, status', 'bookings', 'list', '-L', '1'],
      ['bookings', 'list', '-L', '1', '--json=uid,status,'],
    ]) {
      const r = await booking(args);
      expect(r.stderr, args.join(' ')).toBe('');
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual([{ uid: 'bk_0000', status: 'pending' }]);
    }
  });

  it('reads one field before the positional as fields (bookings get --json uid UID)', async () => {
    const r = await booking(['bookings', 'get', '--json', 'uid', 'bk_0003']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe('{\n  "uid": "bk_0003"\n}\n');
    const all = await booking(['bookings', 'get', '--json', 'bk_0003']);
    expect(JSON.parse(all.stdout)).toHaveProperty('attendee');
  });

  it('names --json when the words still do not fit', async () => {
    for (const args of [
      ['bookings', 'list', '--json', 'uid', 'status'],
      ['bookings', 'get', '--json', 'uid', 'status', 'bk_0003'],
    ]) {
      const r = await booking(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: too many arguments for '(list|get)' \(after --json uid\)\.\n.*--json uid,status/);
    }
  });

  it('refuses a list of commas alone as --fields does, naming the option', async () => {
    for (const args of [
      ['bookings', 'list', '--json', ' , '],
      ['bookings', 'list', '--json=,'],
      ['bookings', 'list', '--fields', ' , '],
    ]) {
      const r = await booking(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr, args.join(' ')).toMatch(
        /^error: option '--(json \[fields\]|fields <list>)' argument '.*' is invalid\. expected a comma-separated list/,
      );
    }
  });
});
