// Records that are not pages of a server's list (webhook verdicts, signatures, send results, listen
// lines, the sandbox's address): each command says what its record is as data and how it reads as a
// line; the shaping flags are honoured here, once, for all of them:
// - `--jq EXPR`, `-o json`, `-o ndjson`, `--json [FIELDS]`, `--fields` go through the same writers as
//   every other command (record.ts for one record, list-writer.ts for many, a line each for a stream);
// - the command's own line (table) or tab-separated fields (tsv) only when no field was named;
// - a field no record has is a usage error (exit 2) before anything runs, checked against the keys
//   the command declares (a listener would otherwise find out at its first delivery).
import { outputFormat } from './hint';
import { UsageError } from '../base/errors';
import { jsonText } from './json';
import { displayText, rawText, zonedRaw } from './cells';
import { csvField, csvHeader, csvRecord } from './csv';
import { escapeControl, escapeJsonText } from './escape';
import { getPath, parsePath, project } from './paths';
import { emit, fieldList, fieldPaths, type OutputContext } from './sink';

export interface RecordSpec<R> {
  /** Every top-level key data() can have: --fields and --json FIELDS are checked against them. */
  keys: readonly string[];
  /** The record as JSON data (json, ndjson, --jq, --fields). */
  data(r: R): Record<string, unknown>;
  /** The record as one line for a reader (table format), already escaped and coloured, no newline. */
  line(r: R): string;
  /** The record's tab-separated fields (tsv format), raw: escaped here. None: tsv prints line(). */
  tsv?(r: R): readonly (string | number | null)[];
}

/**
 * `one`: a single record (json prints the object); `many`: a list (json prints an array);
 * `stream`: records that come while the command runs (json is one compact object per line).
 */
export type RecordMode = 'one' | 'many' | 'stream';

export interface RecordWriter<R> {
  write(r: R): Promise<void>;
  /** Writes out what is held, before a message on stderr, so a terminal shows them in order. */
  flush(): void;
  /**
   * The run stopped part-way (Ctrl-C): what is held is written as whole lines, and a json array is
   * left unclosed, as a list cut short leaves it (list-writer.ts): never valid JSON for part of a run.
   */
  abort(): void;
  end(): Promise<void>;
}

/** The writer for the flags in force; a UsageError when --fields names a key no record has. */
export async function createRecordWriter<R>(ctx: OutputContext, mode: RecordMode, spec: RecordSpec<R>): Promise<RecordWriter<R>> {
  checkKeys(ctx, spec.keys);
  const format = outputFormat(ctx);
  const shaped = ctx.globals.jq !== undefined || fieldList(ctx) !== undefined;
  if (mode === 'stream') return streamWriter(ctx, spec);
  if (format === 'csv' && ctx.globals.jq === undefined) return mode === 'one' ? oneRecord(ctx, spec) : lineWriter(ctx, csvLines(ctx, spec));
  if (shaped || format === 'json' || format === 'ndjson') {
    if (mode === 'one') return oneRecord(ctx, spec);
    const { createListWriter } = await import('./list-writer');
    const list = await createListWriter(ctx);
    return {
      write: (r) => list.write([spec.data(r)]),
      flush() {},
      abort: () => list.abort(),
      end: async () => list.end(),
    };
  }
  return lineWriter(ctx, (r) => ownLine(spec, format === 'tsv', r));
}

function oneRecord<R>(ctx: OutputContext, spec: RecordSpec<R>): RecordWriter<R> {
  let held: R | undefined;
  return {
    write: async (r) => void (held = r),
    flush() {},
    abort() {},
    async end() {
      if (held === undefined) return;
      const { writeRecord } = await import('./record');
      await writeRecord(ctx, spec.data(held));
    },
  };
}

/** Lines held and written in batches: thousands of captures in one run would feel a write each. */
function lineWriter<R>(ctx: OutputContext, line: (r: R) => string): RecordWriter<R> {
  let held = '';
  const flush = () => {
    emit(ctx, held);
    held = '';
  };
  return {
    async write(r) {
      held += line(r);
      if (held.length >= 16 * 1024) flush();
    },
    flush,
    abort: flush,
    end: async () => flush(),
  };
}

/** One line (or jq's results) per record as it comes. */
async function streamWriter<R>(ctx: OutputContext, spec: RecordSpec<R>): Promise<RecordWriter<R>> {
  const paths = fieldPaths(ctx);
  const shape = (r: R) => (paths ? project(spec.data(r), paths) : spec.data(r));
  let text: (r: R) => string;
  if (ctx.globals.jq !== undefined) {
    const { loadJqFilter } = await import('./jq');
    // One worker for the whole stream: a filter that ended after its first record would fail the next.
    const filter = await loadJqFilter(ctx, ctx.globals.jq, { stream: true });
    return { write: async (r) => filter.write(shape(r)), flush() {}, abort: () => filter.close(), end: async () => filter.close() };
  }
  const format = outputFormat(ctx);
  const fields = fieldList(ctx);
  if (format === 'csv') text = csvLines(ctx, spec);
  else if (format === 'json' || format === 'ndjson') text = (r) => `${jsonText(shape(r))}\n`;
  else if (fields) {
    const zone = ctx.globals.tz;
    const cell = format === 'tsv' ? (v: unknown) => rawText(zonedRaw(v, zone)) : (v: unknown) => displayText(v, zone);
    text = (r) => `${fields.map((f) => cell(getPath(spec.data(r), parsePath(f)))).join(format === 'tsv' ? '\t' : '  ')}\n`;
  } else text = (r) => ownLine(spec, format === 'tsv', r);
  return { write: async (r) => emit(ctx, text(r)), flush() {}, abort() {}, end: async () => {} };
}

/**
 * csv: a header row of the record's keys (or the --fields paths), before the first record, then one
 * row per record from its data, as every record command's json has it.
 */
function csvLines<R>(ctx: OutputContext, spec: RecordSpec<R>): (r: R) => string {
  const names = fieldList(ctx) ?? spec.keys;
  const paths = names.map((n) => parsePath(n));
  const raw = ctx.globals.csvRaw === true;
  const zone = ctx.globals.tz;
  let header = csvHeader(names, raw);
  return (r) => {
    const data = spec.data(r);
    const line = header + csvRecord(paths.map((p) => csvField(zonedRaw(getPath(data, p), zone), raw)));
    header = '';
    return line;
  };
}

/**
 * The command's own form of the record: its tsv fields, or its line. Empty fields at the end of a tsv
 * line are left off: `cut -f7`, awk's `$7` and `read` give an empty field for them all the same, and
 * a line that ends in tabs looks like a mistake.
 */
function ownLine<R>(spec: RecordSpec<R>, tsv: boolean, r: R): string {
  if (!tsv || !spec.tsv) return `${spec.line(r)}\n`;
  const fields = spec.tsv(r).map((f) => escapeControl(f === null ? '' : String(f)));
  while (fields.length > 1 && fields.at(-1) === '') fields.pop();
  return `${fields.join('\t')}\n`;
}

/**
 * --fields against the keys a record can have (the first segment of each path must be one): for
 * records whose keys are known before any is printed, so an empty list is checked too.
 */
export function checkKeys(ctx: OutputContext, keys: readonly string[]): void {
  const fields = fieldList(ctx);
  if (!fields) return;
  const sample = Object.fromEntries(keys.map((k) => [k, true]));
  const missing = fields.filter((f) => getPath(sample, parsePath(f).slice(0, 1)) === undefined);
  if (missing.length === 0) return;
  const names = missing.map((f) => escapeJsonText(JSON.stringify(f))).join(', ');
  throw new UsageError(`no record has the field${missing.length === 1 ? '' : 's'} ${names}; available fields: ${keys.join(', ')}.`);
}
