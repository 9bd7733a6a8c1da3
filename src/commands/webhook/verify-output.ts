// Writing verdicts in the format in force:
// - terminal (table): one readable line each, ✓/✗ coloured when colour is on;
// - tsv (piped): verdict, event, bytes, reason[, file, duplicate-of][, secret] tab-separated, verdict
//   `authentic` or `not-authentic`, empty fields for what is unknown (file and duplicate-of with
//   --request, secret with several secrets: the same columns on every line of a run);
// - json: one object for a single delivery, an array for --request; ndjson: one object per line.
import type { Context } from '../../context';
import { outputFormat } from '../../context';
import type { Verdict } from '../../webhook/verdict';
import { jsonText, paint, visible } from '../../webhook/text';

export interface VerdictWriter {
  write(v: Verdict): void;
  /** Writes out what is held (before a message on stderr, so a terminal shows them in order). */
  flush(): void;
  end(): void;
}

/** `many`: the deliveries came from --request (json prints an array, lines name the file). */
export function verdictWriter(ctx: Pick<Context, 'io' | 'globals'>, many: boolean): VerdictWriter {
  const out = ctx.io.stdout;
  const format = outputFormat(ctx);
  if (format === 'json') {
    const all: object[] = [];
    return {
      write: (v) => all.push(jsonVerdict(v)),
      flush: () => {},
      end: () => out.write(jsonText(many ? all : (all[0] ?? null), true)),
    };
  }
  const p = paint(ctx.io.color);
  const line =
    format === 'ndjson'
      ? (v: Verdict) => jsonText(jsonVerdict(v), false)
      : format === 'tsv'
        ? (v: Verdict) => `${tsvVerdict(v)}\n`
        : (v: Verdict) => `${humanVerdict(v, p)}\n`;
  // Lines are written in batches: one write per line costs a system call each, which thousands of
  // captures in one run would feel.
  let held = '';
  const flush = () => {
    if (held) out.write(held);
    held = '';
  };
  return {
    write: (v) => {
      held += line(v);
      if (held.length >= 16 * 1024) flush();
    },
    flush,
    end: flush,
  };
}

function jsonVerdict(v: Verdict): object {
  const { file, ...rest } = v;
  return file === undefined ? rest : { file, ...rest };
}

function tsvVerdict(v: Verdict): string {
  const fields = [v.authentic ? 'authentic' : 'not-authentic', v.event ?? '', v.bytes === null ? '' : String(v.bytes), v.reason ?? ''];
  if (v.file !== undefined) fields.push(v.file);
  if (v.duplicateOf !== undefined) fields.push(v.duplicateOf ?? '');
  if (v.secret !== undefined) fields.push(v.secret ?? '');
  return fields.map(visible).join('\t');
}

function humanVerdict(v: Verdict, p: ReturnType<typeof paint>): string {
  const mark = v.authentic ? p.good('✓ authentic') : p.bad('✗ not authentic');
  const parts = [mark, v.event === null ? p.dim('(no event)') : visible(v.event)];
  if (v.bytes !== null) parts.push(`${v.bytes} ${v.bytes === 1 ? 'byte' : 'bytes'}`);
  if (v.file !== undefined) parts.push(p.dim(visible(v.file)));
  if (v.duplicateOf) parts.push(`duplicate of ${visible(v.duplicateOf)}`);
  if (v.secret) parts.push(`secret ${visible(v.secret)}`);
  const line = parts.join('  ');
  return v.reason === null ? line : `${line} — ${visible(v.reason)}`;
}
