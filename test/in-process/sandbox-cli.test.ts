// The CLI against the sandbox in each of its response shapes: whatever shape it speaks, `bookings list`
// finds every booking exactly once (exact 64-bit ids), and `get` / `whoami` find the resource.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHAPES } from '../../src/sandbox/defaults';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';

const config = tempConfigDir();
afterAll(() => config.cleanup());

describe.each(SHAPES)('booking against the sandbox in shape %s', (shape) => {
  let sb: Sandbox;
  let env: Record<string, string>;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, tickSeconds: 0, bookings: 23, shape, seed: shape });
    env = { BOOKING_BASE_URL: sb.url, BOOKING_API_KEY: sb.apiKey, BOOKING_CONFIG_DIR: config.dir };
  });
  afterAll(() => sb.close());

  it('bookings list pages through every booking once, keeping the exact ids', async () => {
    const r = await runMain(['bookings', 'list', '--page-size', '5', '-o', 'ndjson'], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines.map((l) => JSON.parse(l).uid)).toEqual(sb.bookings().map((b) => b.uid));
    expect(lines.map((l) => /^\{"id":(\d+),/.exec(l)![1])).toEqual(sb.bookings().map((b) => String(b.id)));
  });

  it('--limit stops across pages, and --status filters', async () => {
    const r = await runMain(['bookings', 'list', '--page-size', '4', '--limit', '9', '--status', 'completed', '-o', 'ndjson'], { env });
    expect(r.code).toBe(0);
    const want = sb
      .bookings()
      .filter((b) => b.status === 'completed')
      .slice(0, 9)
      .map((b) => b.uid);
    expect(
      r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).uid),
    ).toEqual(want);
  });

  it('bookings get prints the booking itself', async () => {
    const b = sb.bookings()[1]!;
    const got = await runMain(['bookings', 'get', b.uid, '--json'], { env });
    expect(got.code).toBe(0);
    expect(got.stdout).toContain(`"id": ${b.id},`);
    expect(JSON.parse(got.stdout).uid).toBe(b.uid);
  });

  it('whoami prints the key owner itself', async () => {
    const me = await runMain(['whoami', '--json'], { env });
    expect(me.code).toBe(0);
    expect(JSON.parse(me.stdout).email).toBe(sb.owner.email);
  });
});
