// A loopback API for the output tests: bookings in pages (a fixed number, or endless), one page of
// any size, a body that never ends, or a document nested as deep as asked. It runs on the sandbox
// core's serve (src/sandbox/core.ts); it needs none of the rest (no key, one endpoint).
import { serve } from '../../src/sandbox/core';

export type Mode =
  /** `uidsOnly`: each item only `{"uid":"bk_N"}` (a page of many items at the least cost of each). */
  { kind: 'pages'; total: number; pageSize: number; uidsOnly?: boolean } | { kind: 'endless-body' } | { kind: 'deep'; depth: number };

export interface OutputServer {
  url: string;
  mode: Mode;
  close(): Promise<void>;
}

const booking = (i: number) =>
  `{"uid":"bk_${i}","title":"Call ${i}","status":"${i % 3 === 0 ? 'cancelled' : 'confirmed'}","start":"2026-01-0${1 + (i % 9)}T10:00:00Z","end":"2026-01-0${1 + (i % 9)}T10:30:00Z","attendee":{"name":"Guest ${i}"}}`;

function page(total: number, pageSize: number, from: number, uidsOnly = false): string {
  const to = Math.min(total, from + pageSize);
  const items: string[] = [];
  for (let i = from; i < to; i++) items.push(uidsOnly ? `{"uid":"bk_${i}"}` : booking(i));
  const next = to < total ? `,"next_cursor":"${to}"` : '';
  return `{"data":[${items.join(',')}]${next}}`;
}

export async function startOutputServer(mode: Mode): Promise<OutputServer> {
  const state: OutputServer = { url: '', mode, close: async () => {} };
  // The last page made, kept while the server runs: output-streaming asks for the same
  // 150,000-item page (2.9 MB) once per format.
  let last: { key: string; body: Buffer } | undefined;
  const service = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const m = state.mode;
    if (m.kind === 'endless-body') {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.from(`[${'"0123456789abcdef",'.repeat(4096)}`);
      const more = () => {
        while (res.write(chunk)) if (res.destroyed) return;
      };
      res.on('drain', more);
      more();
      return;
    }
    if (m.kind === 'deep') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(`${'['.repeat(m.depth)}${']'.repeat(m.depth)}`);
      return;
    }
    const from = Number(url.searchParams.get('cursor') ?? 0);
    const key = `${m.total}/${m.pageSize}/${from}/${m.uidsOnly === true}`;
    if (last?.key !== key) last = { key, body: Buffer.from(page(m.total, m.pageSize, from, m.uidsOnly)) };
    res.writeHead(200, { 'content-type': 'application/json' }).end(last.body);
  });
  state.url = service.url;
  state.close = service.close;
  return state;
}
