// "Lists that never lie" (contract, third round), rule by rule: which signal names the next page when
// a response carries several, when counts say the list goes on, what is said at the end of a walk, and
// the bounds on cursors.
import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../../src/http/discovery';
import { countSaysMore } from '../../src/http/walk-end';
import { paginate } from '../../src/http/paginate';
import { closeRigs, collect, collectUntilFailure, failure, rig } from '../helpers/http-mock';

afterEach(closeRigs);

const PATH = '/api/v1/bookings';
const items = [{ id: 'last' }];
/** The body with `items` beside its paging fields, unless it holds a list already. */
function withItems(body: unknown): unknown {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return body;
  return Object.values(body).some(Array.isArray) ? body : { data: items, ...body };
}
/** What discovery says of the next page (toEqual takes an undefined field for a missing one). */
const find = (body: unknown, link?: string) => {
  const { next, more, debug } = discover(withItems(body), link);
  return { next, more, debug };
};

describe('a present next link or cursor is followed, whatever empty field stands beside it', () => {
  it.each<[string, unknown, object]>([
    ['next_page null at the top, links.next a URL', { next_page: null, links: { next: '/p2' } }, { url: '/p2' }],
    ['next_cursor "" beside links.next', { next_cursor: '', links: { next: '/p2' } }, { url: '/p2' }],
    ['nextLink null beside meta.next_cursor', { nextLink: null, meta: { next_cursor: 'c2' } }, { cursor: 'c2' }],
    [
      'a next object whose uri is null but whose after is live',
      { next_page: { uri: null, after: 'a2' } },
      { cursor: 'a2', param: 'after' },
    ],
    ['a position field alone is a next cursor', { metadata: { after: 'a2' } }, { cursor: 'a2' }],
  ])('%s', (_name, body, next) => {
    expect(find(body)).toEqual({ next });
  });

  it('a position field (`cursor`) beside a field named for the next page is where this page was, not a next page', () => {
    expect(find({ cursor: 'c1', next_cursor: null })).toEqual({});
    expect(find({ pageInfo: { endCursor: 'e1' }, next: null })).toEqual({ next: { cursor: 'e1' } });
  });

  it('two live signals for one page (a URL carrying the token) agree: nothing to report', () => {
    const r = find({ pagination: { next_page: 'https://x.test/p?page_token=t%2B2', next_page_token: 't+2' } });
    expect(r).toEqual({ next: { url: 'https://x.test/p?page_token=t%2B2' } });
  });

  it('two live signals that differ: the first-ranked is followed, the other named for --debug', () => {
    expect(find({ next_cursor: 'a', links: { next: '/other' } })).toEqual({
      next: { cursor: 'a' },
      debug: 'next page from next_cursor (a); links.next (/other) names another, not followed',
    });
    expect(find({ next: '/body' }, '</header>; rel="next"').debug).toBe(
      'next page from the Link header (/header); next (/body) names another, not followed',
    );
  });

  it('an end flag overrules a cursor in the body (said in --debug), but not a Link header', () => {
    expect(find({ hasNextPage: false, endCursor: 'e9' })).toEqual({
      debug: 'hasNextPage: false ends the list; endCursor (e9) beside it is not followed',
    });
    expect(find({ has_more: false }, '</p2>; rel="next"').next).toEqual({ url: '/p2' });
  });
});

describe('counts that say the list goes on', () => {
  const fromStart = (pages: number, items: number) => ({ pages, items, fromStart: true });
  it.each<[string, unknown, ReturnType<typeof fromStart> | { pages: number; items: number; fromStart: false }, string | undefined]>([
    ['a total beyond page 1', { total_count: 45 }, fromStart(1, 10), 'total_count: 45'],
    ['a total reached', { meta: { total: 10 } }, fromStart(1, 10), undefined],
    ['a total after pages were followed: a warning, not a stop', { total_count: 45 }, fromStart(3, 30), undefined],
    ['a page count beyond page 1', { page: 1, total_pages: 5 }, fromStart(1, 10), 'total_pages: 5'],
    ['Harvest: page null on a middle page, the pages walked count', { page: null, total_pages: 3 }, fromStart(3, 6), undefined],
    ['Zoom token mode: page_number stays 1', { page_number: 1, page_count: 3 }, fromStart(3, 6), undefined],
    ['page 2 of 3 reached from --cursor', { page: 2, total_pages: 3 }, { pages: 1, items: 10, fromStart: false }, 'total_pages: 3'],
    ['no page number, from --cursor: unknown', { total_pages: 3 }, { pages: 1, items: 10, fromStart: false }, undefined],
    ['Laravel last_page as a number', { current_page: 1, last_page: 3 }, fromStart(1, 2), 'last_page: 3'],
  ])('%s', (_name, body, walked, says) => {
    expect(countSaysMore(discover(withItems(body)).counts, walked)).toBe(says);
  });
});

describe('the end of a walk', () => {
  const twoPages = (total: number) =>
    rig((req) => ({
      body: { data: [{ uid: req.query.get('cursor') ?? 'p1' }], total_count: total, next_cursor: req.query.get('cursor') ? null : 'p2' },
    }));

  it('a total that differs from the items printed: every item, one warning with both numbers', async () => {
    const r = twoPages(3);
    const notes: string[] = [];
    expect(await collect(paginate(r.client, { path: PATH, onNote: (l) => notes.push(l) }))).toHaveLength(2);
    expect(notes).toEqual([
      'warning: GET /api/v1/bookings?cursor=p2: the service reported 3 items (total_count: 3) but 2 were printed; the list may have changed while it was read.',
    ]);
  });

  it('no warning when the total matches, with --limit, or from --cursor', async () => {
    for (const opts of [{ total: 2 }, { total: 3, limit: 5 }, { total: 3, cursor: 'p0' }]) {
      const notes: string[] = [];
      await collect(
        paginate(twoPages(opts.total).client, { path: PATH, limit: opts.limit, cursor: opts.cursor, onNote: (l) => notes.push(l) }),
      );
      expect(notes).toEqual([]);
    }
  });

  it('page or offset numbers with no count on a lone first page: a note, exit 0', async () => {
    const r = rig(() => ({ body: { data: [{ uid: 'a' }], offset: 0 } }));
    const notes: string[] = [];
    expect(await collect(paginate(r.client, { path: PATH, onNote: (l) => notes.push(l) }))).toHaveLength(1);
    expect(notes).toEqual([
      'note: GET /api/v1/bookings: stopped after page 1 (1 item); the response carries page or offset numbers (offset: 0) but names no next cursor or link, and such numbers are not followed.',
    ]);
  });
});

describe('cursors are bounded', () => {
  it('a next cursor over 64 KiB (an 8 MiB one) is not followed: exit 1 naming the bound, after the items so far', async () => {
    const huge = 'x'.repeat(8 * 1024 * 1024);
    const r = rig(() => ({ body: { data: [{ uid: 'a' }], next_cursor: huge } }));
    const { got, e } = await collectUntilFailure(paginate(r.client, { path: PATH }));
    expect(got).toHaveLength(1);
    expect(e).toMatchObject({
      exitCode: 1,
      message: 'GET /api/v1/bookings: the next cursor is 8,192 KiB, over the 64 KiB a cursor may be; stopped after 1 item.',
    });
    expect(r.seen()).toHaveLength(1);
  });

  it('a cursor just under the bound is followed; a --cursor over it is a usage error', async () => {
    const long = 'y'.repeat(60 * 1024);
    const r = rig((req) => ({
      body: { data: [{ uid: req.query.get('cursor') ? 'b' : 'a' }], next_cursor: req.query.get('cursor') ? null : long },
    }));
    expect(await collect(paginate(r.client, { path: PATH }))).toHaveLength(2);
    const e = await failure(collect(paginate(r.client, { path: PATH, cursor: 'z'.repeat(65 * 1024) })));
    expect(e).toMatchObject({ exitCode: 2, message: '--cursor is 65 KiB, over the 64 KiB a cursor may be.' });
  });
});
