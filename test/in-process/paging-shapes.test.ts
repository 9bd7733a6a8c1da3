// Discovery across response shapes the spec leaves open: each list is read whole, in order, each
// item exactly once, following whatever the server uses to point at the next page.
import { afterEach, describe, expect, it } from 'vitest';
import { paginate, type PageInfo } from '../../src/http/paginate';
import { BASE, closeRigs, collect, listServer, rig, uids, type ListPage, type Reply } from '../helpers/http-mock';

afterEach(closeRigs);

const PATH = '/api/v1/bookings';

const SHAPES: Record<string, (p: ListPage) => Reply> = {
  '{data, meta.next_cursor}': (p) => ({ body: { data: p.items, meta: { next_cursor: p.cursor ?? null } } }),
  'bare array + Link rel="next"': (p) => ({
    body: p.items,
    headers: p.nextPath
      ? { link: `<${BASE}${PATH}>; rel="first", <${BASE}${p.nextPath}>; rel="next"` }
      : { link: `<${BASE}${PATH}>; rel="first"` },
  }),
  '{bookings, nextCursor}': (p) => ({ body: { bookings: p.items, nextCursor: p.cursor ?? null } }),
  '{items, links.next} relative URL': (p) => ({ body: { items: p.items, links: { self: '/x', next: p.nextPath ?? null } } }),
  '{status, data: {bookings, pagination: {nextCursor, hasMore}}}': (p) => ({
    body: { status: 'ok', data: { bookings: p.items, pagination: { nextCursor: p.cursor ?? '', hasMore: p.cursor !== undefined } } },
  }),
  '{entries, metadata.after}': (p) => ({ body: { entries: p.items, metadata: { after: p.cursor } } }),
  // endCursor stays set on the last page: hasNextPage false must end the list.
  '{collection, page_info: {endCursor, hasNextPage}}': (p) => ({
    body: { collection: p.items, page_info: { endCursor: p.cursor ?? 'c25', hasNextPage: p.cursor !== undefined } },
  }),
  '{records, paging.next_page_token}': (p) => ({ body: { records: p.items, paging: { next_page_token: p.cursor ?? null } } }),
  '{results, next absolute URL}': (p) => ({ body: { results: p.items, next: p.nextPath ? `${BASE}${p.nextPath}` : null } }),
  '{data: {items}, cursor echo, next_cursor}': (p) => ({
    body: { cursor: 'echo', data: { items: p.items }, next_cursor: p.cursor ?? null },
  }),
  'only array-valued field {count, rows, paging.next}': (p) => ({ body: { count: 25, rows: p.items, paging: { next: p.cursor ?? '' } } }),
};

describe.each(Object.entries(SHAPES))('%s', (_name, shape) => {
  it('yields every item once, in order, across pages', async () => {
    const r = rig(listServer(shape));
    const pages: PageInfo[] = [];
    const items = await collect(paginate(r.client, { path: PATH, query: { status: 'confirmed' }, onPage: (p) => pages.push(p) }));
    expect(items.map((i) => (i as { uid: string }).uid)).toEqual(uids(25));
    expect(r.seen()).toHaveLength(3);
    expect(r.seen().every((s) => s.query.get('status') === 'confirmed')).toBe(true);
    expect(r.seen().every((s) => s.authorization?.startsWith('Bearer '))).toBe(true);
    expect(pages.map((p) => [p.pages, p.items])).toEqual([
      [1, 10],
      [2, 20],
      [3, 25],
    ]);
  });

  it('--limit 12 stops after 12 items, asking for pages of 12', async () => {
    const r = rig(listServer(shape));
    const items = await collect(paginate(r.client, { path: PATH, limit: 12 }));
    expect(items.map((i) => (i as { uid: string }).uid)).toEqual(uids(12));
    expect(r.seen()).toHaveLength(2);
    expect(r.seen()[0]!.query.get('limit')).toBe('12');
  });
});

describe('behind a path prefix', () => {
  it('follows relative next links with or without the prefix', async () => {
    for (const withPrefix of [true, false]) {
      const r = rig(
        listServer((p) => ({
          body: { items: p.items, links: { next: p.nextPath && (withPrefix ? p.nextPath : p.nextPath.replace('/v2', '')) } },
        })),
        { baseUrl: `${BASE}/v2/` },
      );
      const items = await collect(paginate(r.client, { path: PATH }));
      expect(items).toHaveLength(25);
      expect(r.seen().map((s) => s.url.pathname)).toEqual([`/v2${PATH}`, `/v2${PATH}`, `/v2${PATH}`]);
    }
  });

  it('resolves a Link target relative to the page that sent it', async () => {
    const link = (p: ListPage): Record<string, string> => (p.nextPath ? { link: `<bookings?${p.nextPath.split('?')[1]}>; rel=next` } : {});
    const r = rig(
      listServer((p) => ({ body: p.items, headers: link(p) })),
      {
        baseUrl: `${BASE}/v2`,
      },
    );
    expect(await collect(paginate(r.client, { path: PATH }))).toHaveLength(25);
    expect(r.seen()[2]!.path).toBe('/v2/api/v1/bookings?cursor=c20');
  });
});
