// Every command that pages says, when a listing fails part-way, how to resume it: the words it prints
// after "resume with:" must be options that command takes, and running it with them must go on from
// there (event-types once printed --cursor, which it did not take: exit 2).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { runMain } from '../helpers/in-process';
import { tempConfigDir } from '../helpers/cli';

let broken = true;
let service: { url: string; close(): Promise<void> };
const cfg = tempConfigDir();
beforeAll(async () => {
  service = await serve((req, res) => {
    const cursor = new URL(req.url!, 'http://x').searchParams.get('cursor');
    if (cursor === 'c1' && broken) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"message":"db down"}');
    const n = cursor === 'c1' ? 1 : 0;
    const body = { data: [{ uid: `bk_${n}`, id: n, slug: `s${n}` }], next_cursor: n === 0 ? 'c1' : null };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
});
afterAll(async () => {
  await service.close();
  cfg.cleanup();
});

const env = () => ({ BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: service.url, BOOKING_API_KEY: 'sk_test_resume', BOOKING_PAGER: '' });

describe('resume with: the hint of a listing that failed part-way', () => {
  it.each([
    ['bookings list', ['bookings', 'list', '-o', 'ndjson', '--retries', '0']],
    ['event-types', ['event-types', '-o', 'ndjson', '--retries', '0']],
    ['api --paginate', ['api', '/api/v1/bookings', '--paginate', '-o', 'ndjson', '--retries', '0']],
  ])('%s: the hinted options are taken, and the run goes on from there', async (_name, args) => {
    broken = true;
    const failed = await runMain(args, { env: env() });
    expect(failed.code).toBe(1);
    const hint = /resume with: (.+)\n/.exec(failed.stderr)?.[1];
    expect(hint, failed.stderr).toBe('--cursor c1');
    broken = false;
    const resumed = await runMain([...args, ...hint!.split(' ')], { env: env() });
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(failed.stdout).toBe('{"uid":"bk_0","id":0,"slug":"s0"}\n');
    expect(resumed.stdout).toBe('{"uid":"bk_1","id":1,"slug":"s1"}\n');
  });

  it('bookings watch names no cursor to resume from: a poll compares the whole list and cannot begin part-way', async () => {
    broken = true;
    const failed = await runMain(['bookings', 'watch', '--once', '-o', 'ndjson', '--retries', '0'], { env: env() });
    expect(failed.code).toBe(1);
    expect(failed.stderr).toContain('500 Internal Server Error');
    expect(failed.stderr).not.toContain('resume with');
  });
});
