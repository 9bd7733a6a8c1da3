// Lists in the five formats, each written as its items arrive, in constant time and memory per item:
// tsv, csv and ndjson line by line; json as one array, element by element; the table with column widths
// taken from the first page (at most SAMPLE rows of it), later rows fitted to them.
import { InterruptedError } from '../base/errors';
import { hint, outputFormat } from './hint';
import {
  cellValue,
  chooseColumns,
  columnsForFields,
  MAX_DATA_COLUMNS,
  maskedHeaders,
  preferredColumns,
  withTimeZone,
  type Column,
  type ColumnSpec,
} from './columns';
import { tsvCell, zonedRaw } from './cells';
import { csvField, csvHeader, csvRecord } from './csv';
import { project } from './paths';
import { emit, fieldList, fieldPaths, noResults, type OutputContext } from './sink';
import { jsonLine, jsonText, unescapedJsonLine } from './json';
import { escapeJsonText } from './escape';
import { isBigItem, mayHoldBigItems, writeJsonInSlices } from './json-slices';
import { rawItemsOf } from './json-raw';
import { fieldCheck } from './field-check';
import { writeLineBytes, writeLines } from './stream';
import type { ListLayout, TableRenderer } from './table';

export interface ListWriter {
  /** The items of one page (or fewer), written before the promise settles. */
  write(items: readonly unknown[]): Promise<void>;
  /** The list is complete (--jq runs its filter then: awaited). */
  end(): void | Promise<void>;
  /**
   * The list failed part-way: what was written stays (whole lines); a json array is left unclosed,
   * so that no script takes the part for the whole.
   */
  abort(): void;
}

export interface ListWriterOptions {
  /** Columns to prefer when the items have them, e.g. BOOKING_COLUMNS. */
  preferred?: ColumnSpec[];
}

/** How many rows of the first page decide the columns and their widths. */
const SAMPLE = 500;

export async function createListWriter(ctx: OutputContext, opts: ListWriterOptions = {}): Promise<ListWriter> {
  const writer = ctx.globals.jq !== undefined ? await jqWriter(ctx) : await formatWriter(ctx, opts);
  const fields = fieldCheck(ctx);
  return {
    async write(items) {
      fields.check(items as unknown[]);
      await writer.write(items);
    },
    end: () => writer.end(),
    abort: () => writer.abort(),
  };
}

async function formatWriter(ctx: OutputContext, opts: ListWriterOptions): Promise<ListWriter> {
  switch (outputFormat(ctx)) {
    case 'json':
      return jsonWriter(ctx);
    case 'ndjson':
      return ndjsonWriter(ctx);
    case 'tsv':
      return tsvWriter(ctx, opts.preferred);
    case 'csv':
      return csvWriter(ctx, opts.preferred);
    case 'table': {
      // Loaded now, while the first page is on its way.
      const { loadTableRenderer } = await import('./table');
      return tableWriter(ctx, await loadTableRenderer(ctx.io.color), opts.preferred);
    }
  }
}

function projector(ctx: OutputContext): (item: unknown) => unknown {
  const paths = fieldPaths(ctx);
  return paths ? (item) => project(item, paths) : (item) => item;
}

/** The sample rows of a page: all of a short one, the first SAMPLE of a long one. */
function sampleOf(items: readonly unknown[]): unknown[] {
  return items.slice(0, SAMPLE);
}

function jsonWriter(ctx: OutputContext): ListWriter {
  const shape = projector(ctx);
  // The same text as the whole array printed with indent 2, each element indented one level more.
  // One element is held back until the next arrives (or the end), so that every write ends a line:
  // its comma belongs before its newline.
  let held: string | undefined;
  const element = (item: unknown) => {
    const before = held === undefined ? '[\n' : `${held},\n`;
    held = `  ${jsonText(shape(item), 2).replace(/\n/g, '\n  ')}`;
    return before;
  };
  // A big element (isBigItem) is written in slices, its comma left for the next element.
  const sliced = async (item: unknown) => {
    const before = held === undefined ? '[\n' : `${held},\n`;
    held = '';
    try {
      await writeJsonInSlices(ctx, shape(item), 2, '  ', `${before}  `, '');
    } catch (err) {
      // Stopped part-way: what it wrote ends its last line, and there is nothing held to add.
      held = undefined;
      throw err;
    }
  };
  return {
    write: (page) => (mayHoldBigItems() ? writeSomeSliced(ctx, page, element, sliced, shape) : writeLines(ctx, page, element)),
    end: () => emit(ctx, held === undefined ? '[]\n' : `${held}\n]\n`),
    // The element held back was handed to us whole: it is written (without its comma or the closing
    // bracket), so a resume cursor, which points past it, loses nothing.
    abort: () => {
      if (held !== undefined) emit(ctx, `${held}\n`);
      held = undefined;
    },
  };
}

/**
 * writeLines, but each big item (isBigItem(shape(item)): one holding a long string, or an object
 * parsed in pieces) written by `sliced` (src/output/json-slices.ts) instead of `line`: runs of the
 * others go through writeLines.
 */
async function writeSomeSliced(
  ctx: OutputContext,
  page: readonly unknown[],
  line: (item: unknown) => string,
  sliced: (item: unknown) => Promise<void>,
  shape: (item: unknown) => unknown,
): Promise<void> {
  let from = 0;
  for (let i = 0; i <= page.length; i++) {
    if (i < page.length && !isBigItem(shape(page[i]))) continue;
    if (i > from) await writeLines(ctx, page.slice(from, i), line);
    if (i === page.length) break;
    if (ctx.signal?.aborted) throw new InterruptedError();
    await sliced(page[i]);
    from = i + 1;
  }
}

/** --jq: the whole list as one array through the filter, as json would print it. */
async function jqWriter(ctx: OutputContext): Promise<ListWriter> {
  const [{ loadJqFilter }, { JqListInput }] = await Promise.all([import('./jq'), import('./jq-input')]);
  const filter = await loadJqFilter(ctx, ctx.globals.jq!);
  const shape = projector(ctx);
  // jq reads the whole array at once: the list is held, as JSON text, and refused (stopping the
  // paging) once it is more than jq can take.
  const input = new JqListInput();
  return {
    write: async (page) => {
      for (const item of page) input.add(shape(item));
    },
    end: () => filter.writeJson(input.text()),
    abort: () => input.clear(),
  };
}

function ndjsonWriter(ctx: OutputContext): ListWriter {
  const shape = projector(ctx);
  const projected = fieldPaths(ctx) !== undefined;
  return {
    write: (page) => {
      // Items whose bytes are already their line (src/output/json-raw.ts) are copied, unless --fields reshapes
      // them; such a page's lines are escaped a slice at a time (one scan, not one per line). A page
      // without them (a body over 8 MiB among others) is escaped line by line, inside jsonLine, where
      // a big text's copies are let go of in order.
      const raw = projected ? undefined : rawItemsOf(page);
      if (!raw) {
        const line = (item: unknown) => jsonLine(shape(item));
        if (!mayHoldBigItems()) return writeLines(ctx, page, line);
        return writeSomeSliced(ctx, page, line, (item) => writeJsonInSlices(ctx, shape(item), 0, '', '', '\n'), shape);
      }
      // A page whose every item is copied: its lines as bytes, neither decoded nor escaped (none needs it).
      const bytes = raw.lines(page.length);
      if (bytes) return writeLineBytes(ctx, bytes);
      const line = (item: unknown, i: number) => {
        const text = raw.text(i);
        return text === undefined ? unescapedJsonLine(item) : `${text}\n`;
      };
      return writeLines(ctx, page, line, escapeJsonText);
    },
    end: () => {},
    abort: () => {},
  };
}

/**
 * tsv and csv: without --fields the first page decides the columns, and they stay fixed after it. For
 * bookings they are the six preferred ones, filled or not: `cut -f3` is the status whatever the data.
 * `begin` is written before the first row (csv's header), `line` makes each row.
 */
function delimitedWriter(
  ctx: OutputContext,
  preferred: ColumnSpec[] | undefined,
  begin: (columns: Column[]) => string,
  line: (item: unknown, columns: Column[]) => string,
): ListWriter {
  const fields = fieldList(ctx);
  let columns: Column[] | undefined;
  let count = 0;
  return {
    async write(page) {
      if (page.length === 0) return;
      if (count === 0)
        columns = fields ? columnsForFields(fields, sampleOf(page)) : chooseColumns(sampleOf(page), preferred, true, cappedNote(ctx));
      const cols = columns!;
      if (count === 0) emit(ctx, begin(cols));
      count += page.length;
      await writeLines(ctx, page, (item) => line(item, cols));
    },
    end() {
      // An empty list still has its columns where they are known (--fields, or the command's own, as
      // bookings' six): csv's header row says what would be there, for a reader that needs one.
      const known = count > 0 ? undefined : fields ? columnsForFields(fields) : preferred && preferredColumns(preferred);
      if (known) emit(ctx, begin(known));
      if (count === 0 && ctx.io.stdoutIsTTY) noResults(ctx);
    },
    abort() {},
  };
}

function tsvWriter(ctx: OutputContext, preferred?: ColumnSpec[]): ListWriter {
  const zone = ctx.globals.tz;
  return delimitedWriter(
    ctx,
    preferred,
    () => '',
    (item, cols) => `${cols.map((c) => tsvCell(item, c, zone)).join('\t')}\n`,
  );
}

/** csv (./csv.ts): a header row of the columns' field names, then a record per item. */
function csvWriter(ctx: OutputContext, preferred?: ColumnSpec[]): ListWriter {
  const zone = ctx.globals.tz;
  const raw = ctx.globals.csvRaw === true;
  return delimitedWriter(
    ctx,
    preferred,
    (cols) =>
      csvHeader(
        cols.map((c) => c.name ?? c.header),
        raw,
      ),
    (item, cols) => csvRecord(cols.map((c) => csvField(zonedRaw(cellValue(item, c).value, zone), raw))),
  );
}

/** Says that a list's own fields made more columns than a table or tsv shows (MAX_DATA_COLUMNS). */
function cappedNote(ctx: OutputContext): (widest: number) => void {
  const max = MAX_DATA_COLUMNS.toLocaleString('en');
  return (widest) =>
    hint(
      ctx,
      `note: ${widest > MAX_DATA_COLUMNS ? `an item has ${widest.toLocaleString('en')} fields` : `the items have more than ${max} fields`}; the columns are the first ${max} (--fields names others; -o json shows them all).`,
    );
}

/** How many of the columns a table left out its note names. */
const DROPPED_NAMED = 8;

function tableWriter(ctx: OutputContext, renderer: TableRenderer, preferred?: ColumnSpec[]): ListWriter {
  const fields = fieldList(ctx);
  let layout: ListLayout | undefined;
  return {
    async write(page) {
      if (page.length === 0) return;
      if (!layout) {
        const sample = sampleOf(page);
        const chosen = fields ? columnsForFields(fields, sample) : chooseColumns(sample, preferred, false, cappedNote(ctx));
        const columns = maskedHeaders(chosen, ctx.io.mask);
        // No column is left out without a word (named without the zone withTimeZone adds).
        const dropped = (left: string[]) => {
          const headers = columns.slice(columns.length - left.length).map((c) => c.header);
          // A list of thousands of fields is named by its first few.
          const named =
            headers.length <= DROPPED_NAMED + 1
              ? headers.join(', ')
              : `${headers.slice(0, DROPPED_NAMED).join(', ')} and ${(headers.length - DROPPED_NAMED).toLocaleString('en')} more`;
          hint(
            ctx,
            `note: ${named} left out to fit ${ctx.io.columns} columns; -o tsv or a wider terminal shows ${headers.length === 1 ? 'it' : 'them'}.`,
          );
        };
        layout = renderer.layout(withTimeZone(columns, ctx.globals.tz), sample, ctx.io.columns, dropped);
        if (!layout) return;
        emit(ctx, layout.header);
      }
      await writeLines(ctx, page, layout.row);
    },
    end() {
      if (!layout) noResults(ctx);
    },
    abort() {},
  };
}
