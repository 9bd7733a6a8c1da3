// The response shapes the sandbox can speak (--shape). The real service's shapes are not documented,
// so the CLI discovers them; the sandbox serves each shape the CLI must handle, so scripts and tests
// can try all of them against one real server. Items arrive as JSON text (exact big-int digits).

import type { ShapeName } from './defaults';

/** Which list: bookings, or the owner's event types (never more than one page). */
export type Collection = 'bookings' | 'event_types';
/** Which single object: one booking, or the key owner (GET /api/v1/me). */
export type Resource = 'booking' | 'owner';

export interface NextPage {
  cursor: string;
  /** Path and query of the next page, e.g. /api/v1/bookings?limit=5&cursor=… */
  path: string;
  /** The same, absolute, on the origin the client used. */
  url: string;
}

export interface Rendered {
  body: string;
  headers: Record<string, string>;
}

const str = (v: string | undefined) => (v === undefined ? 'null' : JSON.stringify(v));

export function renderList(shape: ShapeName, collection: Collection, items: string[], next: NextPage | undefined): Rendered {
  const list = `[${items.join(',')}]`;
  const cursor = str(next?.cursor);
  switch (shape) {
    case 'data-meta':
      return plain(`{"data":${list},"meta":{"next_cursor":${cursor}}}`);
    case 'bare-link':
      return { body: list, headers: next ? { link: `<${next.url}>; rel="next"` } : {} };
    case 'bookings-nextcursor':
      return plain(`{"${collection}":${list},"nextCursor":${cursor}}`);
    case 'items-links':
      return plain(`{"items":${list},"links":{"next":${str(next?.path)}}}`);
    case 'nested':
      return plain(
        `{"status":"ok","data":{"${collection}":${list},"pagination":{"nextCursor":${cursor},"hasMore":${next !== undefined}}}}`,
      );
    case 'entries-metadata':
      return plain(`{"entries":${list},"metadata":{"after":${cursor}}}`);
  }
}

const NAMED: Record<Resource, string> = { booking: 'booking', owner: 'user' };

/**
 * One object in the style of the shape: data-meta `{"data":{…}}`, bare-link the bare object,
 * bookings-nextcursor `{"booking":{…}}` / `{"user":{…}}`, items-links `{"item":{…}}`, nested
 * `{"status":"ok","data":{"booking":{…}}}` (`"user"` for the owner), entries-metadata `{"result":{…}}`.
 */
export function renderOne(shape: ShapeName, resource: Resource, json: string): string {
  switch (shape) {
    case 'data-meta':
      return `{"data":${json}}`;
    case 'bare-link':
      return json;
    case 'bookings-nextcursor':
      return `{"${NAMED[resource]}":${json}}`;
    case 'items-links':
      return `{"item":${json}}`;
    case 'nested':
      return `{"status":"ok","data":{"${NAMED[resource]}":${json}}}`;
    case 'entries-metadata':
      return `{"result":${json}}`;
  }
}

function plain(body: string): Rendered {
  return { body, headers: {} };
}
