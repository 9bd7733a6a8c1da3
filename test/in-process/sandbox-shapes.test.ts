import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { SHAPES } from '../../src/sandbox/defaults';
import { startSandbox, type Sandbox } from '../../src/sandbox/server';
import { get, walk } from '../helpers/sandbox-http';

let open: Sandbox[] = [];
afterEach(async () => {
  await Promise.all(open.map((s) => s.close()));
  open = [];
});
async function sandbox(opts: Parameters<typeof startSandbox>[0]): Promise<Sandbox> {
  const s = await startSandbox({ port: 0, tickSeconds: 0, ...opts });
  open.push(s);
  return s;
}

describe.each(SHAPES)('shape %s', (shape) => {
  it('pages through every booking exactly once, in creation order', async () => {
    const sb = await sandbox({ shape, bookings: 47 });
    const { items, pages } = await walk(sb, '/api/v1/bookings?limit=10');
    expect(pages).toBe(5);
    expect(items.map((b) => b.uid)).toEqual(sb.bookings().map((b) => b.uid));
  });

  it('ends on an exactly full last page without an empty extra page', async () => {
    const sb = await sandbox({ shape, bookings: 20 });
    const { items, pages } = await walk(sb, '/api/v1/bookings?limit=10');
    expect([items.length, pages]).toEqual([20, 2]);
  });

  it('pages with a status filter kept in the next page', async () => {
    const sb = await sandbox({ shape, bookings: 60 });
    const { items } = await walk(sb, '/api/v1/bookings?status=completed&limit=4');
    expect(items.map((b) => b.uid)).toEqual(
      sb
        .bookings()
        .filter((b) => b.status === 'completed')
        .map((b) => b.uid),
    );
  });

  it('lists event types and wraps single objects so the resource can be found', async () => {
    const sb = await sandbox({ shape, bookings: 3 });
    expect((await walk(sb, '/api/v1/event-types')).items).toHaveLength(4);
    const uid = sb.bookings()[0]!.uid;
    const one = (await get(sb, `/api/v1/bookings/${uid}`)).json;
    const me = (await get(sb, '/api/v1/me')).json;
    const unwrap = (body: any, key: string): any => {
      switch (shape) {
        case 'data-meta':
          return body.data;
        case 'bare-link':
          return body;
        case 'bookings-nextcursor':
          return body[key];
        case 'items-links':
          return body.item;
        case 'nested':
          return body.status === 'ok' && body.data[key];
        case 'entries-metadata':
          return body.result;
      }
    };
    expect(unwrap(one, 'booking').uid).toBe(uid);
    expect(unwrap(me, 'user').email).toBe(sb.owner.email);
  });
});

describe('paging while the lifecycle changes the data', () => {
  it('skips and repeats nothing: every booking that exists at the end is seen once', async () => {
    const sb = await sandbox({ bookings: 40, tickSeconds: 0 });
    const seen: string[] = [];
    let url: string | undefined = `${sb.url}/api/v1/bookings?limit=6`;
    while (url) {
      const r = await get(sb, url);
      seen.push(...r.json.data.map((b: { uid: string }) => b.uid));
      url = r.json.meta.next_cursor ? `${sb.url}/api/v1/bookings?limit=6&cursor=${r.json.meta.next_cursor}` : undefined;
      // Several changes between pages: status changes, reschedules and new bookings at the end.
      if (url) for (let i = 0; i < 3; i++) sb.advance();
    }
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(sb.bookings().map((b) => b.uid));
    expect(seen.length).toBeGreaterThan(40);
  });

  it('next links keep the host name the client used', async () => {
    const sb = await sandbox({ shape: 'bare-link', bookings: 5 });
    // Connected to 127.0.0.1 and naming localhost in Host, as a client that resolved localhost there
    // does: what localhost resolves to on this machine (::1 first, say) does not matter.
    const link = await new Promise<string | undefined>((resolve, reject) => {
      const headers = { host: `localhost:${sb.port}`, authorization: `Bearer ${sb.apiKey}` };
      request({ host: '127.0.0.1', port: sb.port, path: '/api/v1/bookings?limit=2', headers }, (res) => {
        res.resume();
        resolve(res.headers.link as string | undefined);
      })
        .on('error', reject)
        .end();
    });
    expect(link).toMatch(new RegExp(`^<http://localhost:${sb.port}/api/v1/bookings\\?limit=2&cursor=[^>]+>; rel="next"$`));
  });
});
