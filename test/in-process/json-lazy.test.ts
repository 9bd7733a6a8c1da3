// A listing page left unparsed (src/output/json-lazy.ts, src/base/json-verbatim.ts): an element is taken as sent
// only when it is valid JSON that prints as its own bytes (checked against JSON.parse and lossless-json
// over seeded random and mutated documents), and the stand-in array gives what a parse gives the
// moment anything reads an item.
import { parse as losslessParse, stringify as losslessStringify } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { discover } from '../../src/http/discovery';
import { paginate } from '../../src/http/paginate';
import type { HttpClient } from '../../src/http/types';
import { runBookingsList } from '../../src/commands/bookings/list';
import { testContext } from '../helpers/context';
import { makeResponse } from '../../src/http/response';
import { rawItemsOf } from '../../src/output/json-raw';
import { scanJson } from '../../src/base/json-scan';
import { stringifyJson } from '../../src/output/json';
import { verbatimElements } from '../../src/base/json-verbatim';
import { jsonGen, rng } from '../helpers/json-gen';

const canonical = (text: string) => losslessStringify(losslessParse(text, undefined, { onDuplicateKey: ({ newValue }) => newValue }))!;

/** Whether the scan records `[items]` and the verbatim check passes all of them. */
function verbatim(items: string[]): boolean {
  const body = Buffer.from(`[${items.join(',')}]`);
  const [array] = scanJson(body).arrays;
  return array !== undefined && array.elements.length === items.length * 3 && verbatimElements(body, array.elements);
}

function response(body: string) {
  return makeResponse('GET', new URL('http://127.0.0.1/x'), 200, {}, Buffer.from(body));
}

/** ASCII from space up: what the check lets through (a DEL too: the ndjson writer escapes it). */
const ASCII_PRINTABLE = (s: string) => /^[\x20-\x7f]*$/.test(s);

describe('the verbatim check', () => {
  it('passes only elements that are valid JSON printed as their own bytes, over 400 seeded documents and mutations', () => {
    let passed = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const random = rng(seed);
      const gen = jsonGen(random);
      let text = gen.value(4);
      if (random() < 0.6) text = canonical(text);
      // A third of them broken or changed by one byte.
      if (random() < 0.35 && text.length > 1) {
        const at = Math.floor(random() * text.length);
        const bytes = ['"', ',', ':', '}', ']', '0', '-', '.', 'e', ' ', 'x', '\\', '\x7f', '\x01'];
        const insert = bytes[Math.floor(random() * bytes.length)]!;
        text = random() < 0.5 ? text.slice(0, at) + insert + text.slice(at) : text.slice(0, at) + text.slice(at + 1);
      }
      let valid = true;
      try {
        JSON.parse(text);
      } catch {
        valid = false;
      }
      const ok = verbatim([text, '{"id":1}']);
      if (ok) {
        passed++;
        expect(valid, `seed ${seed}: passed invalid JSON ${text}`).toBe(true);
        expect(canonical(text), `seed ${seed}`).toBe(text);
        expect(ASCII_PRINTABLE(text.replace(/"(?:[^"\\]|\\.)*"/g, '""')) && ASCII_PRINTABLE(text), `seed ${seed}`).toBe(true);
      } else if (valid && canonical(text) === text && ASCII_PRINTABLE(text) && !text.includes('\\') && !/"\d[^"]*":/.test(text)) {
        // Printed as sent and nothing it refuses: it must pass (else the fast path is rarely taken).
        expect(ok, `seed ${seed}: refused ${text}`).toBe(true);
      }
    }
    expect(passed).toBeGreaterThan(60);
  });

  it('refuses what JSON.parse refuses or would print otherwise', () => {
    const refused = [
      '{"a":1,"a":2}',
      '{"o":{"k":1,"k":2}}',
      '{"2":1}',
      '{"a":01}',
      '{"a":1.}',
      '{"a":-}',
      '{"a":.5}',
      '{"a":1e}',
      '{"a":tru}',
      '{"a":nul}',
      '{"a":[1,]}',
      '{"a":1,}',
      '{"a" :1}',
      '{"a":"x\\ny"}',
      '{"a":"\x1b[31m"}',
      '{"a":"é"}',
      '{a:1}',
      '[1 2]',
    ];
    for (const item of refused) expect(verbatim([item]), item).toBe(false);
    expect(verbatim(['{"a":1,"b":{"a":2},"c":[{"a":3,"b":4}],"":null}', '"s"', '-0', '1.50', '1E+5', '[]', '{}', 'true'])).toBe(true);
  });
});

describe('a listing left unparsed', () => {
  it('parses only its envelope, and gives the parsed items once one is read', () => {
    const body = '{"data":[{"id":12345678901234567890,"n":"a"},{"id":2,"f":1.50}],"meta":{"next_cursor":98765432109876543210}}';
    const r = response(body);
    const lazy = r.jsonLazyItems!() as { data: unknown[]; meta: { next_cursor: unknown } };
    const items = discover(lazy).items!;
    expect(Array.isArray(items)).toBe(true);
    expect(items).toHaveLength(2);
    // The envelope is parsed as always: a cursor past 2^53 kept whole.
    expect(stringifyJson(lazy.meta.next_cursor)).toBe('98765432109876543210');
    // Counted and copied without a parse.
    expect(r.rawItems!(items)?.lines(2)?.toString()).toBe('{"id":12345678901234567890,"n":"a"}\n{"id":2,"f":1.50}\n');
    expect(rawItemsOf(items)).toBe(r.rawItems!(items));
    // Read: what json() gives, item for item, through every way of reading an array.
    const whole = discover(response(body).json()).items!;
    expect(stringifyJson(items[0])).toBe(stringifyJson(whole[0]));
    expect(stringifyJson(items.at(-1))).toBe('{"id":2,"f":1.50}');
    expect(items.slice(1).map(stringifyJson)).toEqual(['{"id":2,"f":1.50}']);
    expect([...items].map(stringifyJson)).toEqual(whole.map(stringifyJson));
    expect(stringifyJson(lazy)).toBe(stringifyJson(response(body).json()));
    expect(Object.keys(items)).toEqual(['0', '1']);
    items.push({ added: true });
    expect(items).toHaveLength(3);
  });

  it('is parsed whole when an item is not printed as sent, and invalid JSON is still refused', () => {
    const spaced = response('{"data":[{"a": 1}],"next":null}');
    const items = discover(spaced.jsonLazyItems!()).items!;
    expect(rawItemsOf(items)).toBeUndefined(); // a real array: json() ran
    expect(() => response('{"data":[{"a":1},{"b":}],"next":null}').jsonLazyItems!()).toThrow(/not valid JSON/);
    expect(() => response('{"data":[{"a":1}],"next":nul}').jsonLazyItems!()).toThrow(/not valid JSON/);
    // Brackets that do not match around valid items: the rest of the body, parsed, says so.
    expect(() => response('{"data":[{"a":1}}],"next":null}').jsonLazyItems!()).toThrow(/not valid JSON/);
    expect(() => response('[{"a":1}}').jsonLazyItems!()).toThrow(/not valid JSON/);
    expect(() => response('{"data":[{"a":1}],"data":[{"a":2}]}').jsonLazyItems!()).not.toThrow();
    // A DEL is printed as sent by the check's measure, but escaped by the ndjson writer: no page buffer,
    // the item's text as sent (escaped with its slice of lines), and still no parse.
    const del = response('{"data":[{"a":"x\x7fy"},{"b":1}],"next":null}');
    const delItems = discover(del.jsonLazyItems!()).items!;
    expect(rawItemsOf(delItems)).toBeDefined();
    expect(rawItemsOf(delItems)!.lines(2)).toBeUndefined();
    expect(rawItemsOf(delItems)!.text(0)).toBe('{"a":"x\x7fy"}');
    expect(stringifyJson(discover(response('{"data":[{"a":1}],"data":[{"a":2}]}').jsonLazyItems!()).items)).toBe('[{"a":2}]');
  });

  it('works for a body that is the array itself', () => {
    const r = response('[{"a":1},{"b":[true,null]}]');
    const items = r.jsonLazyItems!() as unknown[];
    expect(items).toHaveLength(2);
    expect(r.rawItems!(items)?.lines(2)?.toString()).toBe('{"a":1}\n{"b":[true,null]}\n');
    expect(stringifyJson(items)).toBe('[{"a":1},{"b":[true,null]}]');
  });
});

describe('paging with items left unparsed', () => {
  it('asks for the next page by the last item id, 64 bits, digit for digit (Stripe list)', async () => {
    const ids = ['12345678901234567890', '12345678901234567891', '12345678901234567892', '12345678901234567893'];
    const asked: (string | undefined)[] = [];
    const client: HttpClient = {
      baseUrl: new URL('http://127.0.0.1:9/'),
      async get(path, opts) {
        const after = opts?.query?.starting_after;
        asked.push(after === undefined ? undefined : String(after));
        const from = after === undefined ? 0 : ids.indexOf(String(after)) + 1;
        const page = ids.slice(from, from + 2);
        const body = `{"object":"list","data":[${page.map((id) => `{"id":${id},"s":"x"}`).join(',')}],"has_more":${from + 2 < ids.length}}`;
        return makeResponse('GET', new URL(path, 'http://127.0.0.1:9/'), 200, {}, Buffer.from(body));
      },
      async close() {},
    };
    const lines: string[] = [];
    for await (const page of paginate(client, { path: '/v1/things', lazyItems: true }).pages()) {
      lines.push(rawItemsOf(page)!.lines(page.length)!.toString());
    }
    expect(asked).toEqual([undefined, ids[1]]);
    expect(lines.join('')).toBe(ids.map((id) => `{"id":${id},"s":"x"}\n`).join(''));
  });

  it('prints a page left unparsed as sent, a DEL escaped and the key masked, on a pipe and on a terminal', async () => {
    const key = 'sk_test_lazy_0123456789';
    const pages = [
      `{"data":[{"id":12345678901234567890,"note":"${key}"},{"id":2}],"next_cursor":"c2"}`,
      '{"data":[{"id":3,"d":"x\x7fy"}],"next_cursor":null}',
    ];
    const client: HttpClient = {
      baseUrl: new URL('http://127.0.0.1:9/'),
      async get(path, opts) {
        const body = pages[opts?.query?.cursor === 'c2' ? 1 : 0]!;
        return makeResponse('GET', new URL(path, 'http://127.0.0.1:9/'), 200, {}, Buffer.from(body));
      },
      async close() {},
    };
    for (const tty of [false, true]) {
      const ctx = testContext({
        tty,
        globals: { output: 'ndjson', noColor: true, timeoutMs: 1000, quiet: true, noPager: true },
        connection: async () => ({ profile: 'default', baseUrl: client.baseUrl, apiKey: key, keySource: 'env' }),
        http: async () => client,
      });
      ctx.io.maskSecret(key);
      await runBookingsList({ paginate: true }, ctx);
      expect(ctx.io.out().replace(/\r?\x1b\[2K[^\n]*?(?=\{|$)/g, ''), `tty ${tty}`).toBe(
        '{"id":12345678901234567890,"note":"****"}\n{"id":2}\n{"id":3,"d":"x\\u007fy"}\n',
      );
    }
  });
});
