// The paging zoo's server (test/in-process/paging-zoo.test.ts): every shape of zoo-shapes.ts three pages
// deep at /<name>/…, in the form the real API writes it. Built on the sandbox's core, which checks the
// key and hands over each request to record; this adds the pages. /elsewhere names a next page on
// another origin: localhost, which is this same server told apart by its Host header.
import { startFakeService, type Reply } from '../../src/sandbox/core';
import type { ZooShape } from './zoo-shapes';

/** The token of page n unless a shape has its own: opaque base64, with the + / = a client must encode. */
export const defaultToken = (n: number) => Buffer.from(`page ${n} ~>?&=`).toString('base64');
const tokenOf = (shape: ZooShape, n: number) => (shape.token ?? defaultToken)(n);

function pageNumber(shape: ZooShape, url: URL): number | undefined {
  if (shape.locate) return shape.locate(url);
  const got = url.searchParams.get(shape.param ?? 'cursor');
  const last = Math.max(4, shape.layout?.length ?? 0);
  return got === null ? 1 : Array.from({ length: last - 1 }, (_, i) => i + 2).find((n) => tokenOf(shape, n) === got);
}

/** The items of page n: `perPage` each up to `total`, or as the shape's layout says (empty pages too). */
function pageItems(shape: ZooShape, n: number, perPage: number, total: number): { from: number; to: number; last: number } {
  if (!shape.layout) return { from: (n - 1) * perPage + 1, to: Math.min(n * perPage, total), last: Math.ceil(total / perPage) };
  const from = shape.layout.slice(0, n - 1).reduce((a, b) => a + b, 0) + 1;
  return { from, to: from + (shape.layout[n - 1] ?? 0) - 1, last: shape.layout.length };
}

export interface ZooRequest {
  host: string;
  url: string;
  authorization?: string;
}

export interface ZooServer {
  /** http://127.0.0.1:<port>; each shape's base URL is `${origin}/<name>`. */
  origin: string;
  /** Every request, in order. */
  seen: ZooRequest[];
  close(): Promise<void>;
}

export async function startZooServer(opts: { apiKey: string; shapes: ZooShape[]; perPage: number; total: number }): Promise<ZooServer> {
  const seen: ZooRequest[] = [];
  let origin = '';
  const json = (body: unknown, headers?: Record<string, string>): Reply => ({ status: 200, body: JSON.stringify(body), headers });
  const service = await startFakeService({
    apiKey: opts.apiKey,
    unauthorized: { status: 401, body: '{"message":"bad key"}' },
    onRequest: ({ req }) => void seen.push({ host: req.headers.host ?? '', url: req.url ?? '', authorization: req.headers.authorization }),
    answer: ({ req, url }) => {
      if (req.headers.host !== new URL(origin).host) return json([]); // another origin: must never be asked
      const name = url.pathname.split('/')[1];
      if (name === 'elsewhere')
        return json({ data: [{ id: 'elsewhere_1' }], next: `${origin.replace('127.0.0.1', 'localhost')}/elsewhere/2` });
      const shape = opts.shapes.find((s) => s.name === name);
      if (!shape) return { status: 404, body: '{"message":"no such API"}' };
      const n = pageNumber(shape, url);
      if (n === undefined) return { status: 400, body: JSON.stringify({ message: `bad page token in ${url.search}` }) };
      const items = [];
      const { from, to, last } = pageItems(shape, n, opts.perPage, opts.total);
      for (let i = from; i <= to; i++) items.push({ id: `${shape.name}_${i}` });
      const more = ['all', 'warn'].includes(shape.expect ?? 'all') && n < last;
      const token = more ? tokenOf(shape, n + 1) : undefined;
      const next =
        token === undefined ? undefined : `${origin}${url.pathname}?${new URLSearchParams({ [shape.param ?? 'cursor']: token })}`;
      const page = shape.page({ items, n, token, url: next, path: next?.slice(origin.length), origin });
      return json(page.body, page.headers);
    },
  });
  origin = service.url;
  return { origin, seen, close: service.close };
}
