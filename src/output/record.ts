// A single resource (get, whoami) and raw bodies (api). A record in tsv is `key<TAB>value` lines with
// nested objects flattened to dot paths; on a terminal the same pairs as a two-column table; in csv a
// header row of those dot paths and one row of their values.
import { outputFormat } from './hint';
import { displayText, localTime, rawText, zonedRaw } from './cells';
import { zoneLabel } from './columns';
import { csvField, csvHeader, csvRecord } from './csv';
import { escapeControl, escapeControlKeepLines } from './escape';
import { flatten, getPath, parsePath, project } from './paths';
import { isPlainObject } from '../base/plain-object';
import { emit, fieldList, fieldPaths, type OutputContext } from './sink';
import { jsonLine } from './json';
import { isBigJson, writeJsonInSlices } from './json-slices';
import { fieldCheck } from './field-check';

/** [dot path, value] leaves of the record, or of just the --fields paths (in their order). */
function leaves(record: unknown, fields: string[] | undefined): [string, unknown][] {
  if (!fields) return flatten(record);
  return fields.flatMap((f) => flatten(getPath(record, parsePath(f)), f));
}

function pairs(record: unknown, fields: string[] | undefined, text: (v: unknown) => string): [string, string][] {
  return leaves(record, fields).map(([k, v]) => [escapeControl(k), text(v)]);
}

export async function writeRecord(ctx: OutputContext, record: unknown): Promise<void> {
  fieldCheck(ctx).check([record]);
  if (ctx.globals.jq !== undefined) {
    const paths = fieldPaths(ctx);
    return writeJq(ctx, paths ? project(record, paths) : record);
  }
  await writeRecordAs(ctx, record);
}

async function writeJq(ctx: OutputContext, value: unknown): Promise<void> {
  const { loadJqFilter } = await import('./jq');
  await (await loadJqFilter(ctx, ctx.globals.jq!)).write(value);
}

async function writeRecordAs(ctx: OutputContext, record: unknown): Promise<void> {
  const fields = fieldList(ctx);
  const format = outputFormat(ctx);
  if (format === 'json' || format === 'ndjson') {
    const paths = fieldPaths(ctx);
    return writeJson(ctx, paths ? project(record, paths) : record, format === 'json' ? 2 : 0);
  }
  const zone = ctx.globals.tz;
  // A bare scalar (a body that is just "ok" or 42) has no keys to show.
  if (!fields && !isPlainObject(record) && !Array.isArray(record)) {
    if (format === 'csv') emit(ctx, csvRecord([csvField(zonedRaw(record, zone), ctx.globals.csvRaw === true)]));
    else emit(ctx, `${format === 'tsv' ? rawText(zonedRaw(record, zone)) : displayText(record, zone)}\n`);
    return;
  }
  if (format === 'tsv') {
    emit(
      ctx,
      pairs(record, fields, (v) => rawText(zonedRaw(v, zone)))
        .map(([k, v]) => `${k}\t${v}\n`)
        .join(''),
    );
    return;
  }
  if (format === 'csv') {
    // One record as a spreadsheet reads it: its dot paths as the header row, its values as one row.
    const raw = ctx.globals.csvRaw === true;
    const found = leaves(record, fields);
    emit(
      ctx,
      csvHeader(
        found.map(([k]) => k),
        raw,
      ) + csvRecord(found.map(([, v]) => csvField(zonedRaw(v, zone), raw))),
    );
    return;
  }
  const { loadTableRenderer } = await import('./table');
  const renderer = await loadTableRenderer(ctx.io.color);
  // A time shown in the zone names it after its key, as a list's header does.
  const label = ` (${zoneLabel(zone ?? 'local')})`;
  // Masked before the renderer wraps a long value: the key cut across lines would pass the door's
  // mask of each line (a piece shorter than the 12 characters it looks for).
  const rows = leaves(record, fields).map(([k, v]): [string, string] => [
    ctx.io.mask(escapeControl(typeof v === 'string' && localTime(v) !== undefined ? `${k}${label}` : k)),
    ctx.io.mask(displayText(v, zone)),
  ]);
  emit(ctx, renderer.record(rows, ctx.io.columns));
}

/** A body as sent (api, --no-paginate -o json): pretty lossless JSON, --fields projecting it, or --jq. */
export async function writeJsonValue(ctx: OutputContext, value: unknown): Promise<void> {
  // A field the body has not (a typo) is exit 2 here too; a list body is checked by its items.
  fieldCheck(ctx).check(Array.isArray(value) ? value : [value]);
  const paths = fieldPaths(ctx);
  const shaped = paths ? project(value, paths) : value;
  if (ctx.globals.jq !== undefined) return writeJq(ctx, shaped);
  await writeJson(ctx, shaped, 2);
}

/**
 * One value as a line of JSON: a big one (a 79 MB body) in slices, with a turn between them, so that
 * Ctrl-C is seen and no whole text of it is made (src/output/json-slices.ts).
 */
async function writeJson(ctx: OutputContext, value: unknown, indent: number): Promise<void> {
  if (isBigJson(value)) await writeJsonInSlices(ctx, value, indent, '', '', '\n');
  else emit(ctx, jsonLine(value, indent));
}

/** A non-JSON body for a terminal: its lines kept, control characters shown escaped. */
export function writeEscapedText(ctx: OutputContext, text: string): void {
  if (text === '') return;
  // The newline added after escaping: a CR the text ends with is its own, not a CRLF's.
  const escaped = escapeControlKeepLines(text);
  emit(ctx, escaped.endsWith('\n') ? escaped : `${escaped}\n`);
}
