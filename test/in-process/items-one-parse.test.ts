// Every format prints the items JSON.parse finds in a page, item for item (issue 33, item 3): a field
// named twice, the second time escaped ("d\u0061ta"), a non-ASCII field name given to --items-path,
// and an empty array where an escaped duplicate held items. Every -o format (OUTPUT_FORMATS, so a new
// one too) and --jq agree, and an
// empty list is never printed where JSON.parse finds items.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/sandbox/core';
import { tempConfigDir } from '../helpers/cli';
import { runMain } from '../helpers/in-process';
import { OUTPUT_FORMATS } from '../../src/context';

const BODIES: Record<string, string> = {
  '/escaped-dup': '{"data":[{"id":1},{"id":2}],"d\\u0061ta":[{"id":3},{"id":4}]}',
  '/escaped-dup-longer': '{"data":[{"id":1},{"id":2}],"d\\u0061ta":[{"id":3},{"id":4},{"id":5}]}',
  '/escaped-first': '{"d\\u0061ta":[{"id":1}],"data":[{"id":2},{"id":3}]}',
  '/escaped-empty': '{"data":[{"id":1},{"id":2}],"d\\u0061ta":[]}',
  '/escaped-scalar': '{"data":[{"id":1}],"d\\u0061ta":[{"id":12345678901234567890}],"data":[{"id":9},{"id":8}]}',
  '/non-ascii': '{"dätä":[{"id":1,"n":"ä"},{"id":2}],"meta":{}}',
  '/non-ascii-verbatim': '{"dätä":[{"id":1},{"id":2}],"meta":{}}',
  '/non-ascii-top': '{"meta":{},"dätä":[{"id":1},{"id":2}]}',
  '/non-ascii-escaped': '{"d\\u00e4t\\u00e4":[{"id":1},{"id":2}],"meta":{}}',
};

/** What JSON.parse keeps at `path` (the items every format must print). */
const expected = (path: string, itemsPath: string) => (JSON.parse(BODIES[path]!) as Record<string, unknown[]>)[itemsPath]!;

describe('one parse for every format', () => {
  let url = '';
  let close = async () => {};
  const cfg = tempConfigDir();
  const run = (...args: string[]) =>
    runMain(args, { env: { BOOKING_CONFIG_DIR: cfg.dir, BOOKING_BASE_URL: url, BOOKING_API_KEY: 'sk_test_one_parse' } });

  beforeAll(async () => {
    const service = await serve((req, res) => {
      const body = BODIES[new URL(req.url ?? '/', 'http://x').pathname];
      if (body === undefined) return void res.writeHead(404).end('{}');
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(body);
    });
    url = service.url;
    close = service.close;
  });
  afterAll(async () => {
    await close();
    cfg.cleanup();
  });

  const cases: [path: string, itemsPath: string][] = [
    ['/escaped-dup', 'data'],
    ['/escaped-dup-longer', 'data'],
    ['/escaped-first', 'data'],
    ['/escaped-empty', 'data'],
    ['/escaped-scalar', 'data'],
    ['/non-ascii', 'dätä'],
    ['/non-ascii-verbatim', 'dätä'],
    ['/non-ascii-top', 'dätä'],
    ['/non-ascii-escaped', 'dätä'],
  ];
  for (const [path, itemsPath] of cases) {
    it(`${path} --items-path ${itemsPath}: every format and --jq print what JSON.parse keeps`, async () => {
      const want = expected(path, itemsPath);
      const base = ['api', path, '--paginate', '--items-path', itemsPath];
      const nd = await run(...base, '-o', 'ndjson');
      expect(nd.stderr).toBe('');
      expect(nd.code).toBe(0);
      const ndItems = nd.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as unknown);
      const js = await run(...base, '-o', 'json');
      expect(js.code).toBe(0);
      const jq = await run(...base, '--jq', '.[].id');
      expect(jq.code).toBe(0);
      const tsv = await run(...base, '-o', 'tsv', '--fields', 'id');
      expect(tsv.code).toBe(0);
      const ids = (items: unknown[]) => items.map((i) => String((i as { id: unknown }).id));
      const wantIds = ids(want);
      expect(ids(ndItems), 'ndjson').toEqual(wantIds);
      expect(ids(JSON.parse(js.stdout) as unknown[]), 'json').toEqual(wantIds);
      expect(jq.stdout.trim().split('\n').filter(Boolean), '--jq').toEqual(wantIds);
      expect(tsv.stdout.trim().split('\n').filter(Boolean), 'tsv').toEqual(wantIds);
      // Every format there is, those added later included (csv…): the ids it prints, in order, are
      // those of the items JSON.parse keeps (each body's arrays hold different ids).
      for (const format of OUTPUT_FORMATS) {
        const r = await run(...base, '-o', format, '--fields', 'id');
        expect(r.code, `${format}: ${r.stderr}`).toBe(0);
        expect(r.stdout.match(/\b\d+\b/g) ?? [], format).toEqual(wantIds);
      }
    });
  }
});
