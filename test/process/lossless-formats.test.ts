// Every number as the server sent it, in every output format: seeded random documents (numbers at
// every edge, strings that look like marks) served from loopback and printed by `api`, `api
// --paginate` as json, ndjson, tsv, table, through --jq and --fields, and by `bookings get`; each
// compared with what lossless-json (the reference) reads in the same text.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawnSync } from 'node:child_process';
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { escapeJsonText } from '../../src/output/escape';
import { flatten } from '../../src/output/paths';
import { rawText } from '../../src/output/cells';
import { escapeControl } from '../../src/output/escape';
import { ROOT, tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { jsonGen, rng } from '../helpers/json-gen';

const DOCS = 12;
const PER_PAGE = 3;
const reference = (text: string) => losslessParse(text, undefined, { onDuplicateKey: ({ newValue }) => newValue });
const json = (value: unknown, indent?: number) => escapeJsonText(losslessStringify(value, undefined, indent)!);

interface Doc {
  /** Item texts as served, in order. */
  items: string[];
  /** Served as a compact server writes a page: no whitespace between items. */
  compact: boolean;
}

function makeDoc(seed: number): Doc {
  const gen = jsonGen(rng(seed), { loneSurrogates: false });
  const items = Array.from(
    { length: 2 + (seed % 5) },
    (_, i) => `{"uid":"bk_${seed}_${i}","id":${gen.number()},"n":${gen.number()},"v":${gen.value(3)},"o":${gen.object(3)}}`,
  );
  // Odd documents as a compact server writes them (the items' bytes are copied to ndjson, src/output/json-raw.ts),
  // with items whose bytes are not what booking prints: a duplicate key, a key JSON.parse moves first.
  if (seed % 2 === 1) {
    items.forEach((text, i) => {
      items[i] = losslessStringify(reference(text))!;
    });
    items.push(
      `{"uid":"bk_${seed}_dup","id":${gen.number()},"n":1,"n":${gen.number()}}`,
      `{"uid":"bk_${seed}_idx","id":7,"n":2,"2":1,"1":${gen.number()}}`,
    );
  }
  return { items, compact: seed % 2 === 1 };
}

const docs = Array.from({ length: DOCS }, (_, i) => makeDoc(1000 + i));

/** `next`: the next page's cursor as JSON (by default the document's own list's). */
function page(doc: Doc, from: number, next = from + PER_PAGE < doc.items.length ? `"${from + PER_PAGE}"` : 'null'): string {
  return `{"data":[${doc.items.slice(from, from + PER_PAGE).join(doc.compact ? ',' : ',\n ')}],"meta":{"next_cursor":${next}}}`;
}

describe('lossless output in every format (seeded random documents)', () => {
  let server: Server;
  let url = '';
  const cfg = tempConfigDir();
  const run = (...args: string[]) =>
    runMain(args, { env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: url, BOOKING_API_KEY: 'sk_test_lossless' }, columns: 400 });

  beforeAll(async () => {
    server = createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      const send = (body: string) => res.writeHead(200, { 'content-type': 'application/json' }).end(body);
      let m = /^\/list\/(\d+)$/.exec(u.pathname);
      if (m) return send(page(docs[Number(m[1])]!, Number(u.searchParams.get('cursor') ?? 0)));
      // Every document's pages in turn, each as its own list serves them (cursor: "document.offset").
      if (u.pathname === '/all') {
        const [d, from] = (u.searchParams.get('cursor') ?? '0.0').split('.').map(Number) as [number, number];
        const next = from + PER_PAGE < docs[d]!.items.length ? `${d}.${from + PER_PAGE}` : d + 1 < docs.length ? `${d + 1}.0` : undefined;
        return send(page(docs[d]!, from, next ? `"${next}"` : 'null'));
      }
      m = /^\/doc\/(\d+)$/.exec(u.pathname);
      if (m) return send(`{"items":[${docs[Number(m[1])]!.items.join(',')}],"total":${docs[Number(m[1])]!.items.length}}`);
      m = /^\/api\/v1\/bookings\/bk_(\d+)_0$/.exec(u.pathname);
      if (m) return send(`{"data":${docs[Number(m[1]) - 1000]!.items[0]}}`);
      res.writeHead(404).end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    cfg.cleanup();
  });

  const each = async (check: (doc: Doc, i: number, refs: Record<string, unknown>[]) => Promise<void>) => {
    for (const [i, doc] of docs.entries())
      await check(
        doc,
        i,
        doc.items.map((t) => reference(t) as Record<string, unknown>),
      );
  };

  it('api: the body pretty-printed, every number as sent', async () => {
    await each(async (doc, i) => {
      const r = await run('api', `/doc/${i}`);
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(r.stdout).toBe(`${json(reference(`{"items":[${doc.items.join(',')}],"total":${doc.items.length}}`), 2)}\n`);
    });
  });

  it('api --paginate as json and ndjson', async () => {
    await each(async (_doc, i, refs) => {
      const asJson = await run('api', `/list/${i}`, '--paginate');
      expect([asJson.code, asJson.stderr]).toEqual([0, '']);
      expect(asJson.stdout).toBe(`${json(refs, 2)}\n`);
      const nd = await run('api', `/list/${i}`, '--paginate', '-o', 'ndjson');
      expect(nd.stdout).toBe(refs.map((ref) => `${json(ref)}\n`).join(''));
    });
  });

  it('--fields projections, tsv and table cells', async () => {
    await each(async (_doc, i, refs) => {
      const nd = await run('api', `/list/${i}`, '--paginate', '-o', 'ndjson', '--fields', 'n,v');
      expect(nd.stdout).toBe(refs.map((ref) => `${json({ n: ref.n, v: ref.v })}\n`).join(''));
      const tsv = await run('api', `/list/${i}`, '--paginate', '-o', 'tsv', '--fields', 'id,n');
      expect(tsv.stdout).toBe(refs.map((ref) => `${String(ref.id)}\t${String(ref.n)}\n`).join(''));
      // The first page's rows: later pages are fitted to its widths, their long text cells cut (with …).
      const table = await run('api', `/list/${i}`, '--paginate', '-o', 'table', '--fields', 'id,n');
      const rows = table.stdout
        .trimEnd()
        .split('\n')
        .slice(1, 1 + PER_PAGE);
      expect(rows.map((row) => row.trim().split(/\s+/))).toEqual(refs.slice(0, PER_PAGE).map((ref) => [String(ref.id), String(ref.n)]));
    });
  });

  it('--jq reads the exact text: its output is jq on the reference text', async () => {
    // One run over every document's pages (a jq start is ~0.1 s of CPU; twelve runs were a second):
    // its input is the items of all twelve, as sent.
    const text = losslessStringify(docs.flatMap((doc) => doc.items.map(reference)));
    // jq's answer from another process: a second jq-wasm instance in this one takes the CLI's output.
    const script =
      "const { loadJq } = await import('jq-wasm'); const jq = await loadJq();" +
      " process.stdout.write(jq.raw(require('node:fs').readFileSync(0, 'utf8'), '.', ['-r', '-c']).stdout);";
    const child = spawnSync(
      process.execPath,
      ['--input-type=module', '-e', `import { createRequire } from 'node:module'; const require = createRequire('${ROOT}/'); ${script}`],
      {
        input: text,
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(child.status, child.stderr).toBe(0);
    // As the CLI prints it: ending in a newline.
    const expected = child.stdout.endsWith('\n') ? child.stdout : `${child.stdout}\n`;
    const r = await run('api', '/all', '--paginate', '--jq', '.');
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toBe(expected);
  });

  it('bookings get: the record as json and as key/value lines', async () => {
    await each(async (_doc, i, refs) => {
      const uid = `bk_${1000 + i}_0`;
      const asJson = await run('bookings', 'get', uid, '-o', 'json');
      expect([asJson.code, asJson.stderr]).toEqual([0, '']);
      expect(asJson.stdout).toBe(`${json(refs[0], 2)}\n`);
      const pairs = await run('bookings', 'get', uid);
      expect(pairs.stdout).toBe(
        flatten(refs[0])
          .map(([k, v]) => `${escapeControl(k)}\t${rawText(v)}\n`)
          .join(''),
      );
    });
  });
});
