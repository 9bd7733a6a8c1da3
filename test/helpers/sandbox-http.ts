// Raw HTTP against an in-process sandbox, and an independent walker of each list shape, so the
// sandbox's own suite does not lean on the CLI's discovery code it exists to exercise.
import type { ShapeName } from '../../src/sandbox/defaults';
import type { Sandbox } from '../../src/sandbox/server';

export interface Raw {
  status: number;
  headers: Headers;
  text: string;
  json: any;
}

export async function get(
  sb: Pick<Sandbox, 'url' | 'apiKey'>,
  path: string,
  key: string | null = sb.apiKey,
  init: RequestInit = {},
): Promise<Raw> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Bearer ${key}` };
  const res = await fetch(path.startsWith('http') ? path : `${sb.url}${path}`, { ...init, headers });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The items of one list response and where the next page is (a full URL), per shape. */
function readPage(shape: ShapeName, r: Raw, base: string, path: string): { items: any[]; next?: string } {
  const withCursor = (c: string | null | undefined) => {
    if (!c) return undefined;
    const u = new URL(path, base);
    u.searchParams.set('cursor', c);
    return u.href;
  };
  const b = r.json;
  switch (shape) {
    case 'data-meta':
      return { items: b.data, next: withCursor(b.meta.next_cursor) };
    case 'bare-link': {
      const m = /<([^>]+)>;\s*rel="next"/.exec(r.headers.get('link') ?? '');
      return { items: b, next: m?.[1] };
    }
    case 'bookings-nextcursor':
      return { items: b.bookings ?? b.event_types, next: withCursor(b.nextCursor) };
    case 'items-links':
      return { items: b.items, next: b.links.next ? new URL(b.links.next, base).href : undefined };
    case 'nested': {
      const d = b.data;
      return { items: d.bookings ?? d.event_types, next: d.pagination.hasMore ? withCursor(d.pagination.nextCursor) : undefined };
    }
    case 'entries-metadata':
      return { items: b.entries, next: withCursor(b.metadata.after) };
  }
}

/** Every item of a list, following next pages; also the raw texts, for exact-digit checks. */
export async function walk(sb: Sandbox, path: string): Promise<{ items: any[]; pages: number; texts: string[] }> {
  const items: any[] = [];
  const texts: string[] = [];
  let url: string | undefined = `${sb.url}${path}`;
  let pages = 0;
  while (url) {
    const r = await get(sb, url);
    if (r.status !== 200) throw new Error(`${url}: ${r.status} ${r.text}`);
    texts.push(r.text);
    const page = readPage(sb.shape, r, sb.url, path);
    items.push(...page.items);
    pages++;
    if (pages > 1000) throw new Error('paging does not end');
    url = page.next;
  }
  return { items, pages, texts };
}
