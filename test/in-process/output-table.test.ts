import { describe, expect, it } from 'vitest';
import { BOOKING_COLUMNS, createListWriter } from '../../src/output/index';
import { fitWidths } from '../../src/output/fit';
import { localTime } from '../../src/output/cells';
import { BOOKING_SHAPES, HOSTILE, items, outputContext, type KitOptions, useTimeZone } from '../helpers/output-kit';

async function table(opts: Omit<KitOptions, 'tty'>, data: unknown[], preferred = BOOKING_COLUMNS) {
  const ctx = outputContext({ tty: true, ...opts });
  const writer = await createListWriter(ctx, { preferred });
  // One page: the table takes its column widths from the first page.
  await writer.write(data);
  writer.end();
  return ctx.io;
}

const LONG = items(BOOKING_SHAPES.nested!.replace('Intro call', 'Intro call with a much longer title than anyone would expect to see'));
const widest = (text: string) =>
  Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((l) => l.length),
  );

useTimeZone('America/New_York');

describe('width', () => {
  it('fits 60 columns by dropping the last columns and cutting the title', async () => {
    const out = (await table({ columns: 60 }, LONG)).out();
    expect(widest(out)).toBeLessThanOrEqual(60);
    expect(out.split('\n')[0]).toMatch(/^UID\s+TITLE\s+STATUS\s+START \(America\/New_York\)$/);
    expect(out).toContain('…');
    expect(out).toContain('bk_1'); // ids are never cut
  });
  it('shows everything whole at 200 columns', async () => {
    const out = (await table({ columns: 200 }, LONG)).out();
    expect(out.split('\n')[0]).toMatch(/^UID\s+TITLE\s+STATUS\s+START \(America\/New_York\)\s+END\s+ATTENDEE$/);
    expect(out).toContain('Intro call with a much longer title than anyone would expect to see');
    expect(out).not.toContain('…');
    expect(out.split('\n').every((l) => l === l.trimEnd())).toBe(true);
  });
  it('keeps one column, cut, on an absurdly narrow terminal', async () => {
    const out = (await table({ columns: 3 }, [{ name: 'abcdef' }], [])).out();
    expect(out).toBe('NA…\nab…\n');
  });
  it('shares spare width among the columns that want it', () => {
    expect(
      fitWidths(
        [
          { natural: 4, min: 4 },
          { natural: 50, min: 10 },
          { natural: 30, min: 10 },
        ],
        40,
        2,
      ),
    ).toEqual([4, 16, 16]);
    expect(
      fitWidths(
        [
          { natural: 4, min: 4 },
          { natural: 12, min: 10 },
          { natural: 30, min: 10 },
        ],
        40,
        2,
      ),
    ).toEqual([4, 12, 20]);
    expect(
      fitWidths(
        [
          { natural: 20, min: 20 },
          { natural: 20, min: 20 },
        ],
        30,
        2,
      ),
    ).toEqual([20]);
  });
});

describe('times', () => {
  it('are local in the table and as received in tsv', async () => {
    const data = items(BOOKING_SHAPES.snake!);
    expect((await table({}, data)).out()).toMatch(/START \(America\/New_York\)\s+END.*\n.*2026-11-23 03:00\s+2026-11-23 03:30/);
    const ctx = outputContext({ tty: false });
    const writer = await createListWriter(ctx, { preferred: BOOKING_COLUMNS });
    await writer.write([data[0]]);
    expect(ctx.io.out()).toContain('2026-11-23T08:00:00Z\t2026-11-23T08:30:00Z');
  });
  it('convert offsets, keep seconds when there are any, and leave zoneless or odd values alone', () => {
    expect(localTime('2026-11-23T10:00:00+02:00')).toBe('2026-11-23 03:00');
    expect(localTime('2026-11-23 08:00:30.250z')).toBe('2026-11-23 03:00:30');
    expect(localTime('2026-11-23T08:00:00+0530')).toBe('2026-11-22 21:30');
    expect(localTime('2026-11-23T08:00:00')).toBeUndefined();
    expect(localTime('2026-11-23')).toBeUndefined();
    expect(localTime('soon')).toBeUndefined();
  });
});

describe('cells', () => {
  it('escapes hostile strings', async () => {
    const out = (
      await table(
        { fields: ['v'] },
        HOSTILE.map((v) => ({ v })),
      )
    ).out();
    expect(out).toBe('V\n\\x1b[31mred\n\\x1b]0;title\\x07\na\\tb\\nc\n\\u202e\n');
  });
  it('shows numbers with their exact digits', async () => {
    const out = (await table({}, items('[{"id":12345678901234567890,"price":1.50}]'), [])).out();
    expect(out).toMatch(/12345678901234567890\s+1\.50/);
  });
  it('takes --fields as columns, dot paths included', async () => {
    const out = (await table({ fields: ['attendee.email', 'uid'] }, items(BOOKING_SHAPES.nested!))).out();
    expect(out).toMatch(/^ATTENDEE\.EMAIL\s+UID\nann@example\.com\s+bk_1\nbob@example\.com\s+bk_2\n$/);
  });
});

describe('colour', () => {
  it('is off unless the io says so', async () => {
    const out = (await table({}, items(BOOKING_SHAPES.snake!))).out();
    expect(out).not.toContain('\x1b');
  });
  it('makes the header bold and statuses coloured when on', async () => {
    const out = (await table({ color: true }, items(BOOKING_SHAPES.snake!))).out();
    expect(out).toContain('\x1b[1mUID\x1b[22m');
    expect(out).toContain('\x1b[32mconfirmed\x1b[39m');
    expect(out).toContain('\x1b[31mcancelled\x1b[39m');
  });
});

describe('lists', () => {
  it('say "No results" on stderr and print nothing when empty', async () => {
    const io = await table({}, []);
    expect([io.out(), io.err()]).toEqual(['', 'No results\n']);
    expect((await table({ quiet: true }, [])).err()).toBe('');
  });
  it('print each page as it arrives, later rows fitted to the widths of the first page', async () => {
    const ctx = outputContext({ tty: true, columns: 200 });
    const writer = await createListWriter(ctx, { preferred: BOOKING_COLUMNS });
    const [first, second] = items(BOOKING_SHAPES.camel!) as Record<string, unknown>[];
    await writer.write([first]);
    expect(ctx.io.out().split('\n')).toHaveLength(3);
    await writer.write([{ ...second, name: 'A title much longer than the first page had' }]);
    writer.abort();
    const lines = ctx.io.out().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[2]).toMatch(/^bk_2\s+A title m…\s+cancelled/);
    expect(lines[2]!.indexOf('cancelled')).toBe(lines[1]!.indexOf('confirmed'));
  });
});

describe('headers', () => {
  it('split camelCase and snake_case field names into words', async () => {
    const out = (await table({ columns: 200 }, [{ slug: 'intro', lengthInMinutes: 30, event_type: 'x', URLPath: '/a' }], [])).out();
    expect(out.split('\n')[0]).toMatch(/^SLUG\s+LENGTH IN MINUTES\s+EVENT TYPE\s+URL PATH$/);
  });
});
