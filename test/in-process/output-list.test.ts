import { describe, expect, it } from 'vitest';
import { BOOKING_COLUMNS, createListWriter } from '../../src/output/index';
import { BOOKING_SHAPES, HOSTILE, items, outputContext, type KitOptions, useTimeZone } from '../helpers/output-kit';

async function list(opts: KitOptions, data: unknown[], preferred = BOOKING_COLUMNS) {
  const ctx = outputContext(opts);
  const writer = await createListWriter(ctx, { preferred });
  for (const item of data) writer.write([item]);
  writer.end();
  return ctx.io;
}

const BIG = items('[{"uid":"x","id":12345678901234567890,"price":1.50}]');

useTimeZone('Europe/Berlin');

describe('default format', () => {
  it('is a table on a terminal', async () => {
    const io = await list({ tty: true, columns: 120 }, items(BOOKING_SHAPES.snake!));
    // Times are local: the zone is named in the first time column's header.
    expect(io.out().split('\n')[0]).toMatch(/^UID\s+TITLE\s+STATUS\s+START \(Europe\/Berlin\)\s+END\s+ATTENDEE$/);
  });
  it('is tsv in a pipe: no header, values as received', async () => {
    const io = await list({ tty: false }, items(BOOKING_SHAPES.snake!));
    expect(io.out()).toBe(
      'bk_1\tIntro call\tconfirmed\t2026-11-23T08:00:00Z\t2026-11-23T08:30:00Z\tAnn\n' +
        'bk_2\tReview\tcancelled\t2026-11-24T13:00:00Z\t2026-11-24T14:00:00Z\tBob\n',
    );
    expect(io.err()).toBe('');
  });
});

describe('booking shapes', () => {
  for (const [name, json] of Object.entries(BOOKING_SHAPES)) {
    it(`finds the preferred columns in ${name}`, async () => {
      const tsv = await list({ tty: false }, items(json));
      expect(tsv.out().split('\n')[0]).toBe('bk_1\tIntro call\tconfirmed\t2026-11-23T08:00:00Z\t2026-11-23T08:30:00Z\tAnn');
      const table = await list({ tty: true, columns: 200 }, items(json));
      expect(table.out().split('\n')[1]).toMatch(/^bk_1\s+Intro call\s+confirmed\s+2026-11-23 09:00\s+2026-11-23 09:30\s+Ann$/);
    });
  }
  it('shows how many more attendees there are, in the table only', async () => {
    const data = items('[{"uid":"a","title":"t","attendees":[{"email":"x@y"},{"email":"z@y"},{"email":"w@y"}]}]');
    expect((await list({ tty: true }, data)).out()).toMatch(/x@y \+2/);
    expect((await list({ tty: false }, data)).out()).toBe('a\tt\t\t\t\tx@y\n');
  });
  it('falls back to the data own fields when the preferred ones are not there', async () => {
    const data = items('[{"length":30,"slug":"intro","hidden":false,"locations":[{"type":"zoom"}]}]');
    const io = await list({ tty: true }, data);
    expect(io.out().split('\n')[0]).toMatch(/^SLUG\s+LENGTH\s+HIDDEN\s+LOCATIONS$/);
    expect(io.out()).toContain('[{"type":"zoom"}]');
  });
});

describe('--fields in a narrow table', () => {
  const data = items(
    '[{"id":7,"uid":"bk_1","title":"A rather long title for a call","start":"2026-11-23T08:00:00Z","price":{"amount":"25.00"}}]',
  );
  it('keeps a time whole, and says which asked-for columns were left out', async () => {
    const io = await list({ tty: true, columns: 50, fields: ['id', 'uid', 'title', 'start', 'price'] }, data);
    expect(io.out()).toContain('2026-11-23 09:00');
    expect(io.out()).not.toContain('PRICE');
    expect(io.err()).toBe('note: PRICE left out to fit 50 columns; -o tsv or a wider terminal shows it.\n');
  });
  it('says nothing when everything fits; names the columns chosen from the data that were left out', async () => {
    expect((await list({ tty: true, columns: 200, fields: ['uid', 'start', 'price'] }, data)).err()).toBe('');
    expect((await list({ tty: true, columns: 30 }, data)).err()).toBe(
      'note: START left out to fit 30 columns; -o tsv or a wider terminal shows it.\n',
    );
  });
});

describe('an item of many fields in a table', () => {
  it('80,000 fields: the first that fit, the note naming eight of the rest and counting the others', async () => {
    const item = Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, 1234567890 + i]));
    const io = await list({ tty: true, columns: 80 }, [item], undefined);
    const [header, row] = io.out().split('\n');
    expect(header).toMatch(/^K0 +K1 +K2 +K3 +K4 +K5$/);
    expect(row).toMatch(/^1234567890 +1234567891 +.* 1234567895$/);
    // Measuring and fitting each of 80,000 columns again for each one left out took minutes; the
    // columns are the first 1,000 fields, and both notes say so.
    expect(io.err()).toBe(
      'note: an item has 80,000 fields; the columns are the first 1,000 (--fields names others; -o json shows them all).\n' +
        'note: K6, K7, K8, K9, K10, K11, K12, K13 and 986 more left out to fit 80 columns; -o tsv or a wider terminal shows them.\n',
    );
  });

  it('80,000 fields in tsv and csv: the first 1,000, said on stderr; --fields still reaches any', async () => {
    const item = Object.fromEntries(Array.from({ length: 80_000 }, (_, i) => [`k${i}`, i]));
    const tsv = await list({ tty: false }, [item], undefined);
    expect(tsv.out().split('\t')).toHaveLength(1_000);
    expect(tsv.out().endsWith('\t999\n')).toBe(true);
    expect(tsv.err()).toContain('note: an item has 80,000 fields; the columns are the first 1,000');
    const csv = await list({ tty: false, output: 'csv' }, [item], undefined);
    expect(csv.out().split('\r\n')[0]!.split(',')).toHaveLength(1_000);
    // Items narrower than that whose fields together are more: the same bound, said so.
    const narrow = Array.from({ length: 3 }, (_, n) => Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`n${n}_${i}`, i])));
    // One page of them: the first page decides the columns.
    const ctx = outputContext({ tty: false });
    const writer = await createListWriter(ctx, {});
    await writer.write(narrow);
    writer.end();
    const together = ctx.io;
    // The first item's 600 and the second's first 400; none of the third's.
    const rows = together.out().split('\n');
    expect(rows[1]!.split('\t')).toHaveLength(1_000);
    expect(rows[1]!.endsWith('\t399')).toBe(true);
    expect(rows[2]).toMatch(/^\t{999}$/);
    expect(together.err()).toContain('note: the items have more than 1,000 fields; the columns are the first 1,000');
    const picked = await list({ tty: false, fields: ['k79999'] }, [item], undefined);
    expect([picked.out(), picked.err()]).toEqual(['79999\n', '']);
  });
});

describe('tsv', () => {
  it('bookings: six columns in fixed places, however sparse the first item is', async () => {
    const data = items(
      '[{"uid":"a","title":"","status":"pending","start":"2026-01-01T10:00:00Z","end":null},' +
        '{"uid":"b","title":"Team sync","status":"confirmed","start":"2026-01-02T10:00:00Z","end":"2026-01-02T11:00:00Z","attendee":{"name":"Bob"}}]',
    );
    expect((await list({ tty: false }, data)).out()).toBe(
      'a\t\tpending\t2026-01-01T10:00:00Z\t\t\nb\tTeam sync\tconfirmed\t2026-01-02T10:00:00Z\t2026-01-02T11:00:00Z\tBob\n',
    );
  });
  it('escapes control characters so a line stays a line', async () => {
    const io = await list(
      { tty: false, fields: ['v'] },
      HOSTILE.map((v) => ({ v })),
    );
    expect(io.out()).toBe('\\x1b[31mred\n\\x1b]0;title\\x07\na\\tb\\nc\n\\u202e\n');
  });
  it('writes each item as it arrives', async () => {
    const ctx = outputContext({ tty: false, output: 'tsv' });
    const writer = await createListWriter(ctx);
    await writer.write([{ id: 1 }]);
    expect(ctx.io.out()).toBe('1\n');
    await writer.write([{ id: 2 }]);
    writer.abort();
    expect(ctx.io.out()).toBe('1\n2\n');
  });
  it('keeps number digits', async () => {
    expect((await list({ tty: false }, BIG, [])).out()).toBe('12345678901234567890\tx\t1.50\n');
  });
  it('says "No results" on a terminal only', async () => {
    const tty = await list({ tty: true, output: 'tsv' }, []);
    expect([tty.out(), tty.err()]).toEqual(['', 'No results\n']);
    const piped = await list({ tty: false }, []);
    expect([piped.out(), piped.err()]).toEqual(['', '']);
  });
});

describe('json', () => {
  it('prints one pretty array element by element, lossless, each write whole lines', async () => {
    const ctx = outputContext({ tty: false, output: 'json' });
    const writer = await createListWriter(ctx);
    await writer.write([BIG[0]]);
    expect(ctx.io.out()).toBe('[\n');
    await writer.write([{ a: 1 }]);
    expect(ctx.io.out()).toBe('[\n  {\n    "uid": "x",\n    "id": 12345678901234567890,\n    "price": 1.50\n  },\n');
    writer.end();
    expect(ctx.io.out()).toBe(
      '[\n  {\n    "uid": "x",\n    "id": 12345678901234567890,\n    "price": 1.50\n  },\n  {\n    "a": 1\n  }\n]\n',
    );
  });
  it('leaves the array unclosed on abort, every item written: never valid JSON for part of a list', async () => {
    const ctx = outputContext({ tty: true, output: 'json' });
    const writer = await createListWriter(ctx);
    await writer.write([{ a: 1 }, { a: 2 }]);
    writer.abort();
    expect(ctx.io.out()).toBe('[\n  {\n    "a": 1\n  },\n  {\n    "a": 2\n  }\n');
    expect(() => JSON.parse(ctx.io.out())).toThrow();
  });
  it('prints [] for an empty list', async () => {
    expect((await list({ tty: true, output: 'json' }, [])).out()).toBe('[]\n');
  });
  it('escapes control, C1 and bidi characters', async () => {
    const io = await list({ tty: true, output: 'json' }, [{ v: `${HOSTILE.join('')}\x7f\x85\u2028` }]);
    expect(io.out()).toContain('"\\u001b[31mred\\u001b]0;title\\u0007a\\tb\\nc\\u202e\\u007f\\u0085\\u2028"');
    expect(io.out()).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e\u2028]/);
  });
  it('projects --fields, nested objects kept nested', async () => {
    const io = await list({ tty: false, output: 'json', fields: ['uid', 'attendee.name'] }, items(BOOKING_SHAPES.nested!));
    expect(JSON.parse(io.out())).toEqual([
      { uid: 'bk_1', attendee: { name: 'Ann' } },
      { uid: 'bk_2', attendee: { name: 'Bob' } },
    ]);
  });
});

describe('ndjson', () => {
  it('writes one compact line per item at once, lossless and projected', async () => {
    const ctx = outputContext({ tty: true, output: 'ndjson', fields: ['id', 'price'] });
    const writer = await createListWriter(ctx);
    await writer.write([BIG[0]]);
    expect(ctx.io.out()).toBe('{"id":12345678901234567890,"price":1.50}\n');
    await writer.write([{ id: '\x1b[2J' }]);
    writer.abort();
    expect(ctx.io.out()).toBe('{"id":12345678901234567890,"price":1.50}\n{"id":"\\u001b[2J"}\n');
  });
  it('is the same in a pipe', async () => {
    const io = await list({ tty: false, output: 'ndjson' }, items(BOOKING_SHAPES.camel!));
    expect(io.out().split('\n')).toHaveLength(3);
    expect(JSON.parse(io.out().split('\n')[1]!).id).toBe('bk_2');
  });
});

describe('--fields that no item has', () => {
  it('is a usage error at the first page, before anything is written, in every format', async () => {
    for (const output of ['json', 'ndjson', 'tsv', 'table'] as const) {
      const ctx = outputContext({ tty: output === 'table', output, fields: ['uid', 'stauts', 'attendee.name'] });
      const writer = await createListWriter(ctx, { preferred: BOOKING_COLUMNS });
      await expect(writer.write(items(BOOKING_SHAPES.nested!)), output).rejects.toThrow(
        /^no item has the field "stauts"; available fields: .*\bstatus\b/,
      );
      expect(ctx.io.out(), output).toBe('');
    }
  });
  it('is fine when some item of the first page has the field, or the list is empty', async () => {
    const ctx = outputContext({ tty: false, output: 'tsv', fields: ['uid', 'note'] });
    const writer = await createListWriter(ctx, {});
    writer.write([{ uid: 'a' }, { uid: 'b', note: 'x' }]);
    writer.end();
    expect(ctx.io.out()).toBe('a\t\nb\tx\n');
    expect((await list({ tty: false, output: 'tsv', fields: ['nope'] }, [])).err()).toBe('');
  });
});
