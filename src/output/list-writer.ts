// Lists in the four formats. json must buffer (one array); the table buffers too (column widths
// depend on every row); tsv and ndjson write each item as it arrives, in constant memory.
import { hint, outputFormat } from '../context';
import { chooseColumns, columnsForFields, withTimeZone, type Column, type ColumnSpec } from './columns';
import { tsvCell } from './cells';
import { project } from './paths';
import { emit, fieldList, fieldPaths, jsonText, noResults, type OutputContext } from './sink';
import { fieldCheck } from './field-check';
import type { TableRenderer } from './table';

export interface ListWriter {
  /** The items of one page (or fewer): tsv and ndjson print them with one write. */
  write(items: unknown[]): void;
  /** The list is complete. */
  end(): void;
  /** The list failed part-way: json prints nothing; the other formats keep (or print) whole rows. */
  abort(): void;
}

export interface ListWriterOptions {
  /** Columns to prefer when the items have them, e.g. BOOKING_COLUMNS. */
  preferred?: ColumnSpec[];
}

export async function createListWriter(ctx: OutputContext, opts: ListWriterOptions = {}): Promise<ListWriter> {
  const writer = ctx.globals.jq !== undefined ? await jqWriter(ctx) : await formatWriter(ctx, opts);
  const fields = fieldCheck(ctx);
  return {
    write(items) {
      fields.check(items);
      writer.write(items);
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
    case 'table': {
      // Loaded now, while the first page is on its way, so that end() and abort() stay synchronous.
      const { loadTableRenderer } = await import('./table');
      return tableWriter(ctx, await loadTableRenderer(ctx.io.color), opts.preferred);
    }
  }
}

function projector(ctx: OutputContext): (item: unknown) => unknown {
  const paths = fieldPaths(ctx);
  return paths ? (item) => project(item, paths) : (item) => item;
}

function jsonWriter(ctx: OutputContext): ListWriter {
  const shape = projector(ctx);
  const items: unknown[] = [];
  return {
    write: (page) => void items.push(...page.map(shape)),
    end: () => emit(ctx, `${jsonText(items, 2)}\n`),
    // Half an array is not JSON a script could use; the error on stderr says where to resume.
    abort: () => void (items.length = 0),
  };
}

/** --jq: the whole list as one array through the filter, as json would print it. */
async function jqWriter(ctx: OutputContext): Promise<ListWriter> {
  const { loadJqFilter } = await import('./jq');
  const filter = await loadJqFilter(ctx, ctx.globals.jq!);
  const shape = projector(ctx);
  const items: unknown[] = [];
  return {
    write: (page) => void items.push(...page.map(shape)),
    end: () => filter.write(items),
    abort: () => void (items.length = 0),
  };
}

function ndjsonWriter(ctx: OutputContext): ListWriter {
  const shape = projector(ctx);
  return {
    write: (page) => emit(ctx, page.map((item) => `${jsonText(shape(item))}\n`).join('')),
    end: () => {},
    abort: () => {},
  };
}

function tsvWriter(ctx: OutputContext, preferred?: ColumnSpec[]): ListWriter {
  const fields = fieldList(ctx);
  // Streaming: without --fields the first page decides the columns, and they stay fixed after it. For
  // bookings they are the six preferred ones, filled or not: `cut -f3` is the status whatever the data.
  let columns: Column[] | undefined = fields && columnsForFields(fields);
  let count = 0;
  return {
    write(page) {
      if (page.length === 0) return;
      const cols = (columns ??= chooseColumns(page, preferred, true));
      emit(ctx, page.map((item) => `${cols.map((c) => tsvCell(item, c)).join('\t')}\n`).join(''));
      count += page.length;
    },
    end() {
      if (count === 0 && ctx.io.stdoutIsTTY) noResults(ctx);
    },
    abort() {},
  };
}

function tableWriter(ctx: OutputContext, renderer: TableRenderer, preferred?: ColumnSpec[]): ListWriter {
  const fields = fieldList(ctx);
  let items: unknown[] = [];
  const flush = () => {
    const columns = fields ? columnsForFields(fields, items) : chooseColumns(items, preferred);
    // No column is left out without a word (named without the zone withTimeZone adds).
    const dropped = (left: string[]) => {
      const headers = columns.slice(columns.length - left.length).map((c) => c.header);
      hint(ctx, `note: ${headers.join(', ')} left out to fit ${ctx.io.columns} columns; -o tsv or a wider terminal shows ${headers.length === 1 ? 'it' : 'them'}.`);
    };
    emit(ctx, renderer.list(withTimeZone(columns), items, ctx.io.columns, dropped));
    items = [];
  };
  return {
    write: (page) => void items.push(...page),
    end() {
      if (items.length === 0) noResults(ctx);
      else flush();
    },
    // What arrived before the failure is still worth seeing; the error follows on stderr.
    abort: flush,
  };
}
