// Verdicts as records of the output layer (src/output/records.ts), which honours -o, --json [FIELDS],
// --jq and --fields for them as for every command. The command's own forms:
// - terminal (table): one readable line each, ✓/✗ coloured when colour is on;
// - tsv (piped): verdict, event, bytes, reason[, file, duplicate-of][, secret][, scheme] tab-separated,
//   verdict `authentic` or `not-authentic`, empty fields for what is unknown (file and duplicate-of with
//   --request, secret with several secrets: the same columns on every line of a run; scheme whenever
//   the verdict names one: with --scheme on every line, else on those of another scheme than the seed's);
// - json: one object for a single delivery, an array for --request; ndjson: one object per line.
import type { Context } from '../../../context';
import { createRecordWriter, type RecordWriter } from '../../../output/records';
import type { Verdict } from '../../../webhook/verdict';
import { paint, visible } from '../../../webhook/text';

export type VerdictWriter = RecordWriter<Verdict>;

const KEYS = [
  'file',
  'authentic',
  'event',
  'bytes',
  'reason',
  'hints',
  'duplicateOf',
  'secret',
  'scheme',
  'signature',
  'otherSchemes',
] as const;

/** `many`: the deliveries came from --request (json prints an array, lines name the file). */
export function verdictWriter(ctx: Pick<Context, 'io' | 'globals'>, many: boolean): Promise<VerdictWriter> {
  const p = paint(ctx.io.color);
  return createRecordWriter(ctx, many ? 'many' : 'one', {
    keys: KEYS,
    data: jsonVerdict,
    line: (v) => humanVerdict(v, p),
    tsv: (v) => {
      const fields = [v.authentic ? 'authentic' : 'not-authentic', v.event, v.bytes, v.reason];
      if (v.file !== undefined) fields.push(v.file);
      if (v.duplicateOf !== undefined) fields.push(v.duplicateOf);
      if (v.secret !== undefined) fields.push(v.secret);
      if (v.scheme !== undefined) fields.push(v.scheme);
      return fields;
    },
  });
}

function jsonVerdict(v: Verdict): Record<string, unknown> {
  const { file, ...rest } = v;
  return file === undefined ? rest : { file, ...rest };
}

function humanVerdict(v: Verdict, p: ReturnType<typeof paint>): string {
  const mark = v.authentic ? p.good('✓ authentic') : p.bad('✗ not authentic');
  const parts = [mark, v.event === null ? p.dim('(no event)') : visible(v.event)];
  if (v.bytes !== null) parts.push(`${v.bytes} ${v.bytes === 1 ? 'byte' : 'bytes'}`);
  if (v.file !== undefined) parts.push(p.dim(visible(v.file)));
  if (v.duplicateOf) parts.push(`duplicate of ${visible(v.duplicateOf)}`);
  if (v.secret) parts.push(`secret ${visible(v.secret)}`);
  if (v.signature) parts.push(`signature ${visible(v.signature)}`);
  if (v.scheme !== undefined)
    parts.push(`scheme ${v.scheme}${v.otherSchemes?.length ? ` (also ${v.otherSchemes.join(', ')}: --scheme picks)` : ''}`);
  const line = parts.join('  ');
  return v.reason === null ? line : `${line} — ${visible(v.reason)}`;
}
