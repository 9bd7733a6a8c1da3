// Test rig for the HTTP core and the paging engine: an undici MockAgent (no real network) with one
// handler per origin that records every request, and a client wired to it whose retry waits are
// recorded instead of slept.
import { MockAgent } from 'undici';
import { createHttpClient, type ClientOptions } from '../../src/http/client';
import type { HttpClient } from '../../src/http/types';
import type { GlobalOptions } from '../../src/context';
import { testIO, type TestIO } from '../../src/output/io';

export const BASE = 'https://api.example.test';
export const KEY = 'sk_live_abcdef_9876';

export interface SeenRequest {
  path: string;
  url: URL;
  query: URLSearchParams;
  authorization: string | undefined;
  headers: Record<string, string>;
}

export interface Reply {
  status?: number;
  body?: unknown;
  /** Sent byte for byte instead of JSON.stringify(body). */
  raw?: string;
  headers?: Record<string, string>;
  /** Fail the request as a connection error with this code instead of answering. */
  error?: string;
}

export type Handler = (req: SeenRequest, n: number) => Reply;

export interface Rig {
  agent: MockAgent;
  client: HttpClient;
  io: TestIO;
  /** Requests seen per origin, in order. */
  seen(origin?: string): SeenRequest[];
  /** Retry waits the client asked for, in ms. */
  delays: number[];
  abort: AbortController;
  route(origin: string, handler: Handler): void;
}

const open: MockAgent[] = [];

/** For afterEach: closes every rig's agent made so far. */
export async function closeRigs(): Promise<void> {
  await Promise.all(open.splice(0).map((a) => a.close()));
}

export function rig(
  handler: Handler,
  opts: { baseUrl?: string; globals?: Partial<GlobalOptions>; client?: Partial<ClientOptions> } = {},
): Rig {
  const agent = new MockAgent();
  agent.disableNetConnect();
  open.push(agent);
  const requests = new Map<string, SeenRequest[]>();
  const delays: number[] = [];
  const abort = new AbortController();
  const io = testIO();
  const baseUrl = new URL(opts.baseUrl ?? BASE);

  const route = (origin: string, h: Handler) => {
    const list: SeenRequest[] = [];
    requests.set(origin, list);
    agent
      .get(origin)
      .intercept({ path: () => true, method: 'GET' })
      .reply((o) => {
        const headers = Object.fromEntries(
          Object.entries((o.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
        );
        const url = new URL(o.path, origin);
        const req = { path: o.path, url, query: url.searchParams, authorization: headers.authorization, headers };
        list.push(req);
        const r = h(req, list.length);
        if (r.error) throw Object.assign(new Error(`socket: ${r.error}`), { code: r.error });
        const data = r.raw ?? (r.body === undefined ? '' : JSON.stringify(r.body));
        const type = r.raw === undefined ? { 'content-type': 'application/json' } : {};
        return { statusCode: r.status ?? 200, data, responseOptions: { headers: { ...type, ...r.headers } } };
      })
      .persist();
  };
  route(baseUrl.origin, handler);

  const globals: GlobalOptions = {
    profile: 'default',
    noColor: true,
    timeoutMs: 5_000,
    retries: 3,
    debug: false,
    quiet: true,
    allowHttp: false,
    ...opts.globals,
  };
  const client = createHttpClient({
    connection: { profile: 'default', baseUrl, apiKey: KEY, keySource: 'file' },
    globals,
    io,
    signal: abort.signal,
    dispatcher: agent,
    retryBaseMs: 1,
    sleep: async (ms) => void delays.push(ms),
    ...opts.client,
  });
  return { agent, client, io, delays, abort, route, seen: (origin = baseUrl.origin) => requests.get(origin) ?? [] };
}

/** The rejection of a promise, for asserting on what the user would see. */
export async function failure(p: Promise<unknown>): Promise<{ message: string; hint?: string; exitCode: number; name: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { message: string; hint?: string; exitCode: number; name: string };
    return { message: e.message, hint: e.hint, exitCode: e.exitCode, name: e.name };
  }
  throw new Error('expected a failure, got success');
}

/** The items a generator gave before it failed, and the failure (as `failure` reports it). */
export async function collectUntilFailure(
  gen: AsyncIterable<unknown>,
): Promise<{ got: unknown[]; e: Awaited<ReturnType<typeof failure>> }> {
  const got: unknown[] = [];
  const e = await failure(
    (async () => {
      for await (const item of gen) got.push(item);
    })(),
  );
  return { got, e };
}

export async function collect(gen: AsyncIterable<unknown>): Promise<unknown[]> {
  const out: unknown[] = [];
  for await (const item of gen) out.push(item);
  return out;
}

export interface ListPage {
  items: { uid: string; n: number }[];
  /** The next cursor, undefined on the last page. */
  cursor?: string;
  /** The next page as a path with its query (cursor replaced), undefined on the last page. */
  nextPath?: string;
}

/**
 * A list endpoint of `count` items paged by an opaque cursor: `limit` is honoured up to the server's
 * own `maxPage`; `shape` writes the page in whatever envelope the test wants.
 */
export function listServer(
  shape: (page: ListPage, req: SeenRequest) => Reply,
  opts: { count?: number; maxPage?: number; defaultPage?: number } = {},
): Handler {
  const count = opts.count ?? 25;
  const maxPage = opts.maxPage ?? 10;
  return (req) => {
    const offset = Number(/^c(\d+)$/.exec(req.query.get('cursor') ?? 'c0')?.[1] ?? NaN);
    if (Number.isNaN(offset)) return { status: 400, body: { message: 'bad cursor' } };
    const size = Math.min(Number(req.query.get('limit') ?? opts.defaultPage ?? maxPage), maxPage);
    const end = Math.min(offset + size, count);
    const items = Array.from({ length: end - offset }, (_, i) => ({ uid: `bk_${String(offset + i).padStart(4, '0')}`, n: offset + i }));
    if (end >= count) return shape({ items }, req);
    const cursor = `c${end}`;
    const q = new URLSearchParams(req.query);
    q.set('cursor', cursor);
    return shape({ items, cursor, nextPath: `${req.url.pathname}?${q}` }, req);
  };
}

export const uids = (count: number, from = 0): string[] =>
  Array.from({ length: count }, (_, i) => `bk_${String(from + i).padStart(4, '0')}`);
