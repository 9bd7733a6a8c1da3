// The paging rules of the contract: page size and --limit, where paging starts and ends, overrides,
// and what a failure part-way tells the user.
import { afterEach, describe, expect, it } from 'vitest';
import { fetchOnePage, paginate } from '../../src/http/paginate';
import { discover } from '../../src/http/discovery';
import {
  BASE,
  closeRigs,
  collect,
  collectUntilFailure,
  failure,
  listServer,
  rig,
  uids,
  type ListPage,
  type Reply,
} from '../helpers/http-mock';

afterEach(closeRigs);

const PATH = '/api/v1/bookings';
const dataMeta = (p: ListPage): Reply => ({ body: { data: p.items, meta: { next_cursor: p.cursor ?? null } } });
const uidsOf = (items: unknown[]) => items.map((i) => (i as { uid: string }).uid);

describe('page size and --limit', () => {
  it('keeps paging until --limit is reached when the server caps pages smaller, and no further', async () => {
    const r = rig(listServer(dataMeta, { count: 100, maxPage: 10 }));
    expect(uidsOf(await collect(paginate(r.client, { path: PATH, limit: 25 })))).toEqual(uids(25));
    expect(r.seen().map((s) => s.query.get('limit'))).toEqual(['25', '25', '25']);
    const r2 = rig(listServer(dataMeta, { count: 100, maxPage: 10 }));
    await collect(paginate(r2.client, { path: PATH, limit: 20 }));
    expect(r2.seen()).toHaveLength(2);
  });

  it('cuts a page the server made larger than asked', async () => {
    const r = rig(listServer(dataMeta, { count: 30, maxPage: 30 }));
    expect(await collect(paginate(r.client, { path: PATH, limit: 7, pageSize: 30 }))).toHaveLength(7);
  });

  it('sends --page-size, else min(--limit, 100), else no limit at all', async () => {
    const cases: [Parameters<typeof paginate>[1], string | null][] = [
      [{ path: PATH, limit: 12, pageSize: 5 }, '5'],
      [{ path: PATH, limit: 150 }, '100'],
      [{ path: PATH }, null],
    ];
    for (const [opts, sent] of cases) {
      const r = rig(listServer(dataMeta, { count: 300, maxPage: 100 }));
      await collect(paginate(r.client, opts));
      expect(r.seen().every((s) => s.query.get('limit') === sent)).toBe(true);
    }
  });

  it('streams: the next page is fetched only when its items are wanted', async () => {
    const r = rig(listServer(dataMeta));
    const it = paginate(r.client, { path: PATH })[Symbol.asyncIterator]();
    for (let i = 0; i < 10; i++) await it.next();
    expect(r.seen()).toHaveLength(1);
    await it.next();
    expect(r.seen()).toHaveLength(2);
    await it.return?.();
  });
});

describe('where paging starts and ends', () => {
  it('--cursor starts at that cursor, keeping the query; a URL cursor is used as given', async () => {
    const r = rig(listServer(dataMeta));
    const items = await collect(paginate(r.client, { path: PATH, query: { status: 'pending' }, cursor: 'c20' }));
    expect(uidsOf(items)).toEqual(uids(5, 20));
    expect(r.seen()[0]!.path).toBe('/api/v1/bookings?status=pending&cursor=c20');
    const r2 = rig(listServer(dataMeta));
    await collect(paginate(r2.client, { path: PATH, query: { status: 'pending' }, cursor: '/api/v1/bookings?cursor=c20&x=1' }));
    expect(r2.seen()[0]!.path).toBe('/api/v1/bookings?cursor=c20&x=1');
  });

  it('has_more false ends the list even with a cursor present (Relay keeps endCursor on its last page)', async () => {
    const r = rig(() => ({ body: { data: [{ uid: 'a' }], has_more: false, next_cursor: 'more' } }));
    expect(await collect(paginate(r.client, { path: PATH }))).toHaveLength(1);
    expect(r.seen()).toHaveLength(1);
  });

  it('an empty page that names a next page is followed; so are several in a row', async () => {
    const r = rig((req) => {
      const n = Number(req.query.get('cursor') ?? 0);
      return { body: { data: n === 0 || n === 4 ? [{ uid: `p${n}` }] : [], next_cursor: n < 4 ? String(n + 1) : null } };
    });
    expect(uidsOf(await collect(paginate(r.client, { path: PATH })))).toEqual(['p0', 'p4']);
    expect(r.seen()).toHaveLength(5);
  });

  it('a run of 100 empty pages ends with exit 1 and the cursor to resume from', async () => {
    const r = rig((_q, n) => ({ body: { data: n === 1 ? [{ uid: 'a' }] : [], next_cursor: `c${n}` } }));
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(got).toHaveLength(1);
    expect(e).toMatchObject({
      exitCode: 1,
      message: 'GET /api/v1/bookings?cursor=c100: 100 empty pages in a row, each naming a next page; stopped after 1 item.',
      hint: 'resume with: --cursor c101',
    });
    expect(r.seen()).toHaveLength(101);
  });

  it('a Link rel="next" header is rule 1: it is followed even when the body says has_more: false', async () => {
    const r = rig((_q, n) => ({
      body: { data: [{ uid: `p${n}` }], has_more: false },
      headers: n === 1 ? { link: '</api/v1/bookings?page=2>; rel="next"' } : ({} as Record<string, string>),
    }));
    expect(uidsOf(await collect(paginate(r.client, { path: PATH })))).toEqual(['p1', 'p2']);
  });

  it('the same cursor twice is an error (exit 1), never a loop', async () => {
    const r = rig((req) => ({
      body: {
        data: [{ uid: req.query.get('cursor') ?? 'first' }],
        meta: { next_cursor: req.query.get('cursor') === 'B' ? 'A' : req.query.get('cursor') ? 'B' : 'A' },
      },
    }));
    const { got: seen, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(e.exitCode).toBe(1);
    expect(e.message).toContain('the server sent the same next cursor twice (A)');
    expect(e.hint).toContain('--cursor-path');
    expect(uidsOf(seen)).toEqual(['first', 'A', 'B']);
  });

  it('--cursor-path and --items-path override discovery', async () => {
    const r = rig(
      listServer((p) => ({
        body: { cursor: 'echo', rows: p.items, other: [1], state: { token: p.cursor ?? null }, data: { items: ['decoy'] } },
      })),
    );
    const items = await collect(paginate(r.client, { path: PATH, cursorPath: 'state.token', itemsPath: 'rows' }));
    expect(uidsOf(items)).toEqual(uids(25));
  });

  it('no list found: an error that suggests --items-path', async () => {
    const r = rig(() => ({ body: { a: [1], b: [2], total: 2 } }));
    const e = await failure(collect(paginate(r.client, { path: PATH })));
    expect(e).toMatchObject({
      exitCode: 1,
      message: 'GET /api/v1/bookings: cannot find the list of items in the response (top-level fields: a, b, total).',
    });
    expect(e.hint).toContain('--items-path');
    const e2 = await failure(collect(paginate(r.client, { path: PATH, itemsPath: 'total' })));
    expect(e2.message).toBe('GET /api/v1/bookings: --items-path total is not an array in the response.');
  });

  it('fetchOnePage returns the body, the items and the next cursor', async () => {
    const r = rig(listServer(dataMeta));
    const page = await fetchOnePage(r.client, { path: PATH, limit: 3 });
    expect(uidsOf(page.items)).toEqual(uids(3));
    expect(page.next).toEqual({ cursor: 'c3' });
    expect(page.body).toMatchObject({ meta: { next_cursor: 'c3' } });
    expect(r.seen()).toHaveLength(1);
  });
});

describe('failures part-way', () => {
  it('a persistent 503 on page 2: exit 1, the server message and the cursor to resume from', async () => {
    const r = rig((req, n) =>
      req.query.get('cursor') === 'c10' ? { status: 503, body: { message: 'overloaded' } } : listServer(dataMeta)(req, n),
    );
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(got).toHaveLength(10);
    expect(e).toMatchObject({
      exitCode: 1,
      message: 'GET /api/v1/bookings?cursor=c10: 503 Service Unavailable: overloaded (after 3 retries)',
      hint: 'resume with: --cursor c10',
    });
  });

  it('a 429 part-way stays a rate-limit error (exit 5), with both hints', async () => {
    const r = rig((req, n) => (req.query.get('cursor') ? { status: 429 } : listServer(dataMeta)(req, n)), { globals: { retries: 0 } });
    const e = await failure(collect(paginate(r.client, { path: PATH })));
    expect(e.exitCode).toBe(5);
    expect(e.name).toBe('RateLimitError');
    expect(e.hint).toMatch(/raise --retries\.\nresume with: --cursor c10$/);
  });

  it('Ctrl-C between pages: exit 130 and where to resume', async () => {
    const r = rig(listServer(dataMeta));
    const e = await failure(
      (async () => {
        for await (const _ of paginate(r.client, { path: PATH, signal: r.abort.signal })) r.abort.abort();
      })(),
    );
    expect(e).toMatchObject({ exitCode: 130, hint: 'resume with: --cursor c10' });
  });

  it('a next link to another origin is refused, naming it; the key never goes there', async () => {
    const r = rig(() => ({ body: { data: [{ uid: 'a' }], next: 'https://evil.example.net/api/v1/bookings?cursor=2' } }));
    r.route('https://evil.example.net', () => ({ body: [] }));
    const e = await failure(collect(paginate(r.client, { path: PATH })));
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe(
      `GET /api/v1/bookings: the next page link https://evil.example.net/api/v1/bookings?cursor=2: https://evil.example.net is not the base URL's origin (${BASE}); not sending your API key there.`,
    );
    expect(r.seen('https://evil.example.net')).toHaveLength(0);
  });
});

/** A body with the last item beside its paging fields, as a list page has (its items found first). */
function withItems(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return 'data' in body ? body : { data: [{ id: 'last' }], ...body };
}

describe('which parameter a token goes back in', () => {
  const next = (body: unknown, cursorParam?: string) => discover(withItems(body), undefined, { cursorParam }).next;
  it.each<[string, unknown, string | undefined]>([
    // The service's own shapes, and the contract's first list: ?cursor=.
    ['meta.next_cursor', { data: [], meta: { next_cursor: 't' } }, undefined],
    ['nextCursor', { bookings: [], nextCursor: 't' }, undefined],
    ['metadata.after', { entries: [], metadata: { after: 't' } }, undefined],
    ['Slack response_metadata.next_cursor', { ok: true, channels: [], response_metadata: { next_cursor: 't' } }, undefined],
    ['paging.next_page_token', { records: [], paging: { next_page_token: 't' } }, undefined],
    ['next_cursor with has_more but no object: "list"', { data: [], next_cursor: 't', has_more: true }, undefined],
    ['next_token without a signature', { data: [], next_token: 't' }, undefined],
    // Conventions, told apart by a signature beside the field where two APIs share its name.
    ['Notion {object: "list", next_cursor}', { object: 'list', results: [], next_cursor: 't', has_more: true }, 'start_cursor'],
    ['Google nextPageToken (AIP-158)', { kind: 'calendar#events', items: [], nextPageToken: 't' }, 'pageToken'],
    ['Jira search/jql nextPageToken beside isLast', { issues: [], nextPageToken: 't', isLast: false }, 'nextPageToken'],
    ['Zoom next_page_token beside page_size', { page_size: 30, next_page_token: 't', meetings: [] }, 'next_page_token'],
    ['X meta.next_token beside result_count', { data: [], meta: { result_count: 2, next_token: 't' } }, 'pagination_token'],
    ['WHOOP next_token beside records', { records: [], next_token: 't' }, 'nextToken'],
  ])('%s', (_name, body, param) => {
    expect(next(body)).toEqual(param === undefined ? { cursor: 't' } : { cursor: 't', param });
  });

  it('--cursor-param overrides every convention', () => {
    expect(next({ items: [], nextPageToken: 't' }, 'page_token')).toEqual({ cursor: 't', param: 'page_token' });
    expect(next({ object: 'list', results: [], next_cursor: 't' }, 'cursor')).toEqual({ cursor: 't' });
  });

  it('a signature must hold its value: object "page" beside next_cursor is not Notion', () => {
    expect(next({ object: 'page', results: [], next_cursor: 't' })).toEqual({ cursor: 't' });
  });
});

describe('a server that ignores a conventional parameter', () => {
  it('answers page 1 again with a fresh token: stopped after page 1 (exit 1), naming the guess and --cursor-param', async () => {
    let n = 0;
    const r = rig(() => ({ body: { items: [{ uid: 'a' }, { uid: 'b' }], nextPageToken: `t${'0'.repeat(++n)}` } }));
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(uidsOf(got)).toEqual(['a', 'b']);
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe(
      "GET /api/v1/bookings?pageToken=t0: the server sent a page it had already sent (next cursor t0 sent as ?pageToken=, the parameter its field's convention names); stopping instead of looping.",
    );
    expect(e.hint).toContain('--cursor-param <name>');
    expect(r.seen()).toHaveLength(2);
  });

  it('with ?cursor= too: the same items under a cursor one character longer each time are a repeat (exit 1), not a loop', async () => {
    let n = 0;
    const r = rig(() => ({ body: { request_id: `r${++n}`, items: [{ uid: 'a' }, { uid: 'b' }], next_cursor: `x${'1'.repeat(n)}` } }));
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(uidsOf(got)).toEqual(['a', 'b']);
    expect(e.exitCode).toBe(1);
    expect(e.message).toBe(
      'GET /api/v1/bookings?cursor=x1: the server sent a page it had already sent (next cursor x1); stopping instead of looping.',
    );
    expect(r.seen()).toHaveLength(2);
  });

  it('the same items by uid (or id) with a field that changes on every answer (a signed URL, a time) are a repeat too', async () => {
    let n = 0;
    // (An end after 10 answers, so that a walk that misses the repeat fails here rather than loops.)
    const r = rig(() => {
      if (++n > 10) return { body: { items: [] } };
      return {
        body: {
          items: [
            { uid: 'a', avatar: `https://cdn.test/a?sig=${n}` },
            { uid: 'b', served_at: n },
          ],
          next_cursor: `z${n}`,
        },
      };
    });
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(uidsOf(got)).toEqual(['a', 'b']);
    expect(e.message).toBe(
      'GET /api/v1/bookings?cursor=z1: the server sent a page it had already sent (next cursor z1); stopping instead of looping.',
    );
    expect(r.seen()).toHaveLength(2);
    // By id, a number past 2^53 kept exact, when items have no uid.
    const ids = rig(() =>
      ++n > 20 ? { body: { items: [] } } : { raw: `{"items":[{"id":12345678901234567891,"t":${n}}],"next_cursor":"w${n}"}` },
    );
    expect((await failure(collect(paginate(ids.client, { path: PATH })))).message).toContain('the server sent a page it had already sent');
    // Items with other ids on each page are pages, not repeats.
    let p = 0;
    const fresh = rig(() => (++p <= 3 ? { body: { items: [{ uid: `u${p}`, t: p }], next_cursor: `v${p}` } } : { body: { items: [] } }));
    expect(uidsOf(await collect(paginate(fresh.client, { path: PATH })))).toEqual(['u1', 'u2', 'u3']);
  });

  it('a repeat is seen in pretty-printed bodies too, where the items are found by their own JSON text', async () => {
    let n = 0;
    const r = rig(() => ({ raw: JSON.stringify({ items: [{ uid: 'a' }, { uid: 'b' }], next_cursor: `y${++n}` }, null, 2) }));
    const e = await failure(collect(paginate(r.client, { path: PATH })));
    expect(e.message).toContain('the server sent a page it had already sent');
    expect(r.seen()).toHaveLength(2);
  });
});
