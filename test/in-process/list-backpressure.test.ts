// A reader slower than the CLI: a list stops asking for pages while stdout is full, and goes on when
// the reader catches up, so memory stays flat however long the list (the contract's ndjson promise).
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { runBookingsList } from '../../src/commands/bookings/list';
import type { Context } from '../../src/context';
import type { HttpClient } from '../../src/http/types';
import { makeResponse } from '../../src/http/response';
import { testContext } from '../helpers/context';

const PAGES = 10;
const PER_PAGE = 50;

function pageBody(page: number): string {
  const data = Array.from({ length: PER_PAGE }, (_, i) => ({ uid: `bk_${page}_${i}`, title: 'x'.repeat(40) }));
  return JSON.stringify({ data, meta: { next_cursor: page + 1 < PAGES ? `c${page + 1}` : null } });
}

function context(stdout: PassThrough, requested: string[]): Context {
  const base = new URL('http://127.0.0.1:9/');
  const client: HttpClient = {
    baseUrl: base,
    async get(path, opts) {
      const cursor = opts?.query?.cursor;
      requested.push(String(cursor ?? 'first'));
      const page = cursor === undefined ? 0 : Number(String(cursor).slice(1));
      const url = new URL(path, base);
      return makeResponse('GET', url, 200, { 'content-type': 'application/json' }, Buffer.from(pageBody(page)));
    },
    async close() {},
  };
  return testContext({
    stdout,
    globals: { output: 'ndjson', noColor: true, timeoutMs: 1000, quiet: true },
    connection: async () => ({ profile: 'default', baseUrl: base, apiKey: 'k', keySource: 'env' }),
    http: async () => client,
  });
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Waits (on events, never a fixed sleep) until the list is blocked on the full pipe: it has asked for
 * a page, stdout needs draining, and the writer listens for the 'drain' that would let it go on.
 */
async function blockedOnReader(stdout: PassThrough, requested: string[]): Promise<void> {
  while (!(requested.length > 0 && stdout.writableNeedDrain && stdout.listenerCount('drain') > 0)) await turn();
}

describe('bookings list into a slow reader', () => {
  it('asks for no further page while stdout is full, then lists everything once the reader reads', async () => {
    // A pipe that holds a page or two (4 KiB on each side of the PassThrough) and is not read yet.
    const stdout = new PassThrough({ highWaterMark: 4 * 1024 });
    const requested: string[] = [];
    const run = runBookingsList({ paginate: true }, context(stdout, requested));
    await blockedOnReader(stdout, requested);
    // A few pages fill the pipe; then no more are asked for, however many turns the reader takes.
    const asked = requested.length;
    expect(asked).toBeLessThan(4);
    for (let i = 0; i < 50; i++) await turn();
    expect(requested).toHaveLength(asked);

    const lines: string[] = [];
    stdout.setEncoding('utf8').on('data', (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)));
    await run;
    expect(requested).toEqual(['first', ...Array.from({ length: PAGES - 1 }, (_, i) => `c${i + 1}`)]);
    expect(lines).toHaveLength(PAGES * PER_PAGE);
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ uid: `bk_${PAGES - 1}_${PER_PAGE - 1}` });
  });

  it('a reader that goes away ends the wait (the run then ends on EPIPE in bin/booking.js)', async () => {
    const stdout = new PassThrough({ highWaterMark: 1024 });
    const requested: string[] = [];
    const run = runBookingsList({ paginate: true }, context(stdout, requested));
    await blockedOnReader(stdout, requested);
    expect(requested.length).toBeLessThan(4);
    stdout.destroy();
    await run;
  });
});
