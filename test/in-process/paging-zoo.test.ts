// The zoo: the documented list shapes of real public APIs (test/helpers/zoo-shapes.ts), each served
// three pages deep by one loopback server, read by the real CLI (in-process main) with each of the
// three list commands. What a user sees: every item once and exit 0; or, for APIs that page by
// numbers only, page 1 and a note; never a silent first page. The key never leaves its origin.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/main';
import { testIO } from '../../src/output/io';
import { ZOO, type ZooShape } from '../helpers/zoo-shapes';
import { DISAGREEING } from '../helpers/zoo-disagreeing';
import { defaultToken, startZooServer, type ZooRequest, type ZooServer } from '../helpers/zoo-server';

const KEY = 'sk_test_zoo_0123456789';
const PER_PAGE = 2;
const TOTAL = 6;
let seen: ZooRequest[] = [];
let origin = '';
let configDir = '';
let server: ZooServer;

// APIs shaped like a known convention whose server reads the token from another parameter: it ignores
// the one the convention names and answers page 1 again. `fresh` sends a new token, of a new length,
// each time (a token that embeds a time), so only the items show the page is the same one.
let served = 0;
const IGNORERS: ZooShape[] = [
  {
    name: 'google-ignores',
    source: 'nextPageToken, but read from page_token',
    param: 'page_token',
    page: (p) => ({ body: { items: p.items, ...(p.token ? { nextPageToken: p.token } : {}) } }),
  },
  {
    name: 'google-fresh',
    source: 'nextPageToken, fresh each time, read from page_token',
    param: 'page_token',
    locate: (u) =>
      u.searchParams.has('page_token') ? [2, 3, 4].find((n) => defaultToken(n) === u.searchParams.get('page_token')!.split('.')[0]) : 1,
    page: (p) => ({ body: { items: p.items, ...(p.token ? { nextPageToken: `${p.token}.${'9'.repeat(++served)}` } : {}) } }),
  },
  {
    name: 'notion-ignores',
    source: 'Notion-like list, read from cursor',
    param: 'after',
    page: (p) => ({ body: { object: 'list', results: p.items, next_cursor: orNull(p.token), has_more: !!p.token } }),
  },
];
const orNull = <T>(v: T | undefined) => v ?? null;

// Signals that disagree inside one response, for the tests around the zoo.
const AROUND: ZooShape[] = [
  {
    name: 'two-links',
    source: 'two live next links that differ',
    page: (p) => ({ body: { data: p.items, next: orNull(p.url), links: { next: p.url ? `${p.url}&from=links` : null } } }),
  },
  {
    name: 'echo-cursor',
    source: 'the request cursor echoed as `cursor` beside next_cursor',
    page: (p) => ({ body: { data: p.items, cursor: p.n === 1 ? 'start' : 'echo', next_cursor: orNull(p.token) } }),
  },
];

beforeAll(async () => {
  configDir = mkdtempSync(join(tmpdir(), 'booking-zoo-'));
  server = await startZooServer({ apiKey: KEY, shapes: [...ZOO, ...DISAGREEING, ...IGNORERS, ...AROUND], perPage: PER_PAGE, total: TOTAL });
  ({ origin, seen } = server);
});

afterAll(async () => {
  await server.close();
  rmSync(configDir, { recursive: true, force: true });
});

async function run(args: string[], baseUrl: string): Promise<{ code: number; out: string; err: string }> {
  const io = testIO();
  const code = await main(['--base-url', baseUrl, ...args], { io, env: { BOOKING_API_KEY: KEY, BOOKING_CONFIG_DIR: configDir } });
  return { code, out: io.out(), err: io.err() };
}

const COMMANDS: [string, string[]][] = [
  ['bookings list', ['bookings', 'list', '-o', 'ndjson']],
  ['event-types', ['event-types', '-o', 'ndjson']],
  ['api --paginate', ['api', '/v1/things', '--paginate', '-o', 'ndjson']],
];
const ids = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);
const idsUpTo = (name: string, n: number) => Array.from({ length: n }, (_, i) => `${name}_${i + 1}`);

describe.each([...ZOO, ...DISAGREEING].map((s) => [s.name, s] as const))('%s', (_name, shape) => {
  it.each(COMMANDS)(`${shape.source}: %s${shape.flags ? ` ${shape.flags.join(' ')}` : ''}`, async (_cmd, args) => {
    const from = seen.length;
    const r = await run([...args, ...(shape.flags ?? [])], `${origin}/${shape.name}`);
    const requests = seen.slice(from);
    expect(requests.every((q) => q.authorization === `Bearer ${KEY}`)).toBe(true);
    switch (shape.expect ?? 'all') {
      case 'all':
        expect({ code: r.code, err: r.err, ids: ids(r.out) }).toEqual({ code: 0, err: '', ids: idsUpTo(shape.name, TOTAL) });
        expect(requests.length).toBeGreaterThanOrEqual(3);
        break;
      case 'warn':
        // Every item, exit 0 (a list can change while it is walked), and one line with both numbers.
        expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 0, ids: idsUpTo(shape.name, TOTAL) });
        expect(r.err).toMatch(
          /^warning: GET \S+: the service reported 8 items \(total_count: 8\) but 6 were printed; the list may have changed while it was read\.\n$/,
        );
        break;
      case 'stops':
        expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 1, ids: idsUpTo(shape.name, PER_PAGE) });
        expect(r.err).toMatch(
          /^error: GET \S+: the response says there is more \([\w.]+: \w+\) but names no next page; stopped after 2 items\. .*--cursor-path.*--cursor-param.*--cursor-from-last.*--no-paginate or --limit\.\n$/,
        );
        break;
    }
  });
});

describe('around the zoo', () => {
  it.each([
    ['google-ignores', 'pageToken'],
    ['google-fresh', 'pageToken'],
    ['notion-ignores', 'start_cursor'],
  ])(
    'a wrong guess is never silent: %s ignores ?%s= and sends page 1 again: exit 1 after page 1, naming --cursor-param',
    async (name, guess) => {
      for (const args of COMMANDS.map(([, a]) => a)) {
        const r = await run(args, `${origin}/${name}`);
        expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 1, ids: idsUpTo(name, PER_PAGE) });
        expect(r.err).toMatch(
          new RegExp(
            `^error: GET \\S+\\?${guess}=\\S+: the server sent a page it had already sent \\(next cursor \\S+ sent as \\?${guess}=, the parameter its field's convention names\\); stopping instead of looping\\.\\n`,
          ),
        );
        expect(r.err).toContain('name it with --cursor-param <name>');
      }
      // Told the parameter, the same API pages to the end.
      const told = await run(
        ['api', '/v1/x', '--paginate', '-o', 'ndjson', '--cursor-param', IGNORERS.find((s) => s.name === name)!.param!],
        `${origin}/${name}`,
      );
      expect({ code: told.code, err: told.err, ids: ids(told.out) }).toEqual({ code: 0, err: '', ids: idsUpTo(name, TOTAL) });
    },
  );

  it("--cursor-param still overrides a convention: Google's token sent as ?cursor= is refused loudly too", async () => {
    const r = await run(['bookings', 'list', '-o', 'ndjson', '--cursor-param', 'cursor'], `${origin}/google`);
    expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 1, ids: idsUpTo('google', PER_PAGE) });
    expect(r.err).toContain('the server sent a page it had already sent (next cursor ');
  });

  it("a profile's cursorParam and cursorFromLast page as the flags do; flags given today win over them", async () => {
    for (const [profile, key, value] of [
      ['whoop', 'cursor-param', 'nextToken'],
      ['discord', 'cursorParam', 'before'],
      ['discord', 'cursor_from_last', 'id'],
    ]) {
      expect((await run(['--profile', `zoo-${profile}`, 'config', 'set', key!, value!], origin)).code).toBe(0);
    }
    for (const name of ['whoop', 'discord']) {
      const r = await run(['--profile', `zoo-${name}`, 'bookings', 'list', '-o', 'ndjson'], `${origin}/${name}`);
      expect({ code: r.code, err: r.err, ids: ids(r.out) }).toEqual({ code: 0, err: '', ids: idsUpTo(name, TOTAL) });
    }
    // --cursor-param wins over the profile's; --cursor-path today sets aside its cursorFromLast.
    const param = await run(['--profile', 'zoo-whoop', 'bookings', 'list', '-o', 'ndjson', '--cursor-param', 'cursor'], `${origin}/whoop`);
    expect({ code: param.code, ids: ids(param.out) }).toEqual({ code: 1, ids: idsUpTo('whoop', PER_PAGE) });
    const path = await run(['--profile', 'zoo-discord', 'event-types', '-o', 'ndjson', '--cursor-path', 'nowhere'], `${origin}/discord`);
    expect({ code: path.code, ids: ids(path.out) }).toEqual({ code: 0, ids: idsUpTo('discord', PER_PAGE) });
  });

  it('a has-more stop still prints the items so far as one JSON array (-o json)', async () => {
    const r = await run(['bookings', 'list', '-o', 'json'], `${origin}/jira-agile`);
    expect(r.code).toBe(1);
    expect((JSON.parse(r.out) as { id: string }[]).map((i) => i.id)).toEqual(idsUpTo('jira-agile', 2));
  });

  it('bracketed keys in --cursor-path name keys with dots', async () => {
    const r = await run(['event-types', '-o', 'ndjson', '--cursor-path', '["@odata.nextLink"]'], `${origin}/msgraph`);
    expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 0, ids: idsUpTo('msgraph', TOTAL) });
    const bad = await run(['event-types', '--cursor-path', 'a["b'], `${origin}/msgraph`);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^error: cannot read the path "a\[\\"b" at character 2/);
  });

  it('--no-paginate and a reached --limit take one page on purpose: exit 0; --no-paginate still says what counts more', async () => {
    for (const [name, field] of [
      ['jira-agile', 'isLast: false'],
      ['total-null-cursor', 'total_count: 6'],
      ['pages-null-next', 'total_pages: 3'],
    ]) {
      const r = await run(['bookings', 'list', '--no-paginate', '-o', 'ndjson'], `${origin}/${name}`);
      expect({ code: r.code, ids: ids(r.out) }).toEqual({ code: 0, ids: idsUpTo(name!, PER_PAGE) });
      expect(r.err).toBe(
        `no next page found although the response says there is more (${field}): see --cursor-path, --cursor-param, --cursor-from-last\n`,
      );
      const limited = await run(['api', '/v1/x', '--paginate', '-o', 'ndjson', '--limit', '2'], `${origin}/${name}`);
      expect({ code: limited.code, err: limited.err, ids: ids(limited.out) }).toEqual({ code: 0, err: '', ids: idsUpTo(name!, PER_PAGE) });
    }
    // A --limit the page does not reach is not one page on purpose.
    const short = await run(['bookings', 'list', '-o', 'ndjson', '--limit', '5'], `${origin}/total-null-cursor`);
    expect({ code: short.code, ids: ids(short.out) }).toEqual({ code: 1, ids: idsUpTo('total-null-cursor', PER_PAGE) });
  });

  it('two live next links that differ: the first-ranked is followed, and --debug says which was not', async () => {
    const r = await run(['event-types', '-o', 'ndjson'], `${origin}/two-links`);
    expect({ code: r.code, err: r.err, ids: ids(r.out) }).toEqual({ code: 0, err: '', ids: idsUpTo('two-links', TOTAL) });
    expect(seen.at(-1)!.url).not.toContain('from=links');
    const debug = await run(['--debug', 'event-types', '-o', 'ndjson'], `${origin}/two-links`);
    expect(debug.code).toBe(0);
    const lines = debug.err.split('\n').filter((l) => l.startsWith('paging: '));
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^paging: next page from next \(http:\/\/\S+\); links\.next \(http:\/\/\S+&from=links\) names another, not followed$/,
    );
  });

  it('a `cursor` beside a null next_cursor is where the page was, not a next page: every item, exit 0', async () => {
    const r = await run(['bookings', 'list', '-o', 'ndjson'], `${origin}/echo-cursor`);
    expect({ code: r.code, err: r.err, ids: ids(r.out) }).toEqual({ code: 0, err: '', ids: idsUpTo('echo-cursor', TOTAL) });
  });

  it('a next URL on another origin is refused before any request goes there: the key stays home', async () => {
    const from = seen.length;
    const r = await run(['api', '/v1/x', '--paginate', '-o', 'ndjson'], `${origin}/elsewhere`);
    expect(r.code).toBe(1);
    expect(ids(r.out)).toEqual(['elsewhere_1']);
    expect(r.err).toContain("is not the base URL's origin");
    expect(r.err).toContain('not sending your API key there');
    expect(seen.slice(from).map((q) => q.host)).toEqual([new URL(origin).host]);
  });
});
