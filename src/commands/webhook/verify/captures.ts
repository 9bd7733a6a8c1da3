// `webhook verify --request`: raw captures and HAR files, named or in folders, each delivery checked
// in one streaming pass against every secret given. A delivery whose body repeats an earlier one is
// marked a duplicate of it (a sender's retry: a receiver that is not idempotent handles it twice), and
// a summary on stderr counts them. Exit 0 when every delivery is authentic, 1 when any is not, 2 when
// one cannot be read (it is reported and the others are still checked).
//
// Bounded on any input: a capture is read under its size limit (capture.ts), a HAR file under its own
// (har.ts); what is not a regular file in a folder (a FIFO named x.http) is reported and skipped, never
// waited on; Ctrl-C ends a wait at once, and the verdicts already made are written first (whole lines;
// `-o json` leaves its array unclosed, as a list cut short does: never valid JSON for part of a run).
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { unreadable } from '../../../base/input';
import { checkpoint } from '../../../base/checkpoint';
import { kindOf } from '../../../base/own-file';
import { CliError, ExitCode, InterruptedError, UsageError } from '../../../base/errors';
import { harDeliveries } from '../../../webhook/har';
import { NotRegularFile, readDelivery } from '../../../webhook/reader';
import type { Secret } from '../../../webhook/signature';
import { SecretsDigest, type Verdict } from '../../../webhook/verdict';
import { DeliveryJudge } from '../../../webhook/schemes/delivery-judge';
import type { SchemeName } from '../../../webhook/schemes/names';
import { UnusableSecret } from '../../../webhook/schemes/standard';
import { visible } from '../../../webhook/text';
import { ageRule, type AgeOptions } from '../shared/scheme-options';
import { resolveSecrets, type SecretOptions } from '../shared/secret';
import { verdictWriter, type VerdictWriter } from './output';

/** A file to read; `inFolder`: found in a folder, so read only when it is a regular file. */
interface Named {
  path: string;
  inFolder: boolean;
}

/** One delivery judged, and its body's fingerprint (HMAC under the first secret) for duplicates. */
interface Judged {
  verdict: Verdict;
  key: string;
}

/**
 * What the check of captures takes of `webhook verify`'s options: the secrets, the event expected,
 * the scheme (recognised from each capture's headers when none) and the age rule of timestamped ones.
 */
type CaptureCheck = SecretOptions & AgeOptions & { event?: string; scheme?: SchemeName };

export async function verifyCaptures(paths: string[], opts: CaptureCheck, ctx: Context): Promise<number> {
  if (paths.filter((p) => p === '-').length > 1) throw new UsageError('--request - is given twice: stdin can be read once.');
  const secrets = await resolveSecrets(opts, ctx, paths.includes('-'));
  const judge = new DeliveryJudge({ chosen: opts.scheme, secrets, age: ageRule(opts, ctx), expectedEvent: opts.event });
  const out = await verdictWriter(ctx, true);
  const run = new Run(ctx, out);
  const check = checkpoint(ctx.signal);
  const flush = () => out.flush();
  try {
    for (const item of captureFiles(paths)) {
      await check();
      if ('skipped' in item) run.skipped(item.path, item.skipped);
      else if (item instanceof CliError) run.failed(item);
      else await run.file(verifyFile(item, secrets, judge, ctx, flush), item.path);
    }
  } catch (err) {
    // Ctrl-C: the verdicts already made are not lost (a json array is left unclosed, as a list's is).
    if (err instanceof InterruptedError) out.abort();
    throw err;
  }
  await out.end();
  run.summary();
  return run.code;
}

/** The state of one run: the exit code, the counts for the summary, the bodies seen. */
class Run {
  code: number = ExitCode.OK;
  private hintShown = false;
  private readonly seen = new Map<string, string>();
  private readonly counts = { authentic: 0, notAuthentic: 0, duplicates: 0, unreadable: 0, skipped: 0 };

  constructor(
    private readonly ctx: Context,
    private readonly out: VerdictWriter,
  ) {}

  /**
   * A file's results, written as they come: a HAR file of 100,000 signed entries held every verdict
   * until its last (~50 MB more at the peak). Its errors as a file's come before its first result.
   */
  async file(results: AsyncIterator<Judged | CliError>, path: string): Promise<void> {
    const check = checkpoint(this.ctx.signal);
    for (;;) {
      let r: IteratorResult<Judged | CliError>;
      try {
        r = await results.next();
      } catch (err) {
        if (err instanceof NotRegularFile) return this.skipped(path, 'not a regular file');
        // A secret that is no key of a capture's scheme is wrong for every capture of it: the run stops.
        if (err instanceof UnusableSecret) throw err;
        // Ctrl-C ends the run; any other error is about this one file.
        if (!(err instanceof CliError) || err instanceof InterruptedError) throw err;
        return this.failed(err);
      }
      if (r.done) return;
      await check();
      if (r.value instanceof CliError) this.failed(r.value);
      else await this.judged(r.value);
    }
  }

  private async judged({ verdict, key }: Judged): Promise<void> {
    const first = this.seen.get(key);
    if (first === undefined) this.seen.set(key, verdict.file!);
    else this.counts.duplicates++;
    await this.out.write({ ...verdict, duplicateOf: first ?? null });
    if (verdict.authentic) this.counts.authentic++;
    else {
      this.counts.notAuthentic++;
      if (this.code === ExitCode.OK) this.code = ExitCode.FAILURE;
    }
  }

  failed(err: CliError): void {
    this.out.flush();
    // The message names the file: a name is text from outside, escaped like every line.
    this.ctx.io.stderr.write(`error: ${visible(err.message)}\n`);
    if (err.hint && !this.hintShown) this.ctx.io.stderr.write(`${err.hint.split('\n').map(visible).join('\n')}\n`);
    this.hintShown ||= Boolean(err.hint);
    this.counts.unreadable++;
    this.code = ExitCode.USAGE;
  }

  /** Said even with -q: a file the user may think was checked was not. */
  skipped(path: string, what: string): void {
    this.out.flush();
    this.ctx.io.stderr.write(
      `warning: skipped ${visible(path)}: ${what} (in a folder only regular files are read; name it on its own to read from it).\n`,
    );
    this.counts.skipped++;
  }

  /**
   * One line on stderr (-q drops it, as any hint) when more than one delivery was looked at: always
   * when a person watches stderr, and in a script only when there are duplicates to point out.
   */
  summary(): void {
    const c = this.counts;
    const judged = c.authentic + c.notAuthentic;
    if (judged + c.unreadable + c.skipped < 2) return;
    if (!this.ctx.io.stderrIsTTY && c.duplicates === 0) return;
    const parts = [`${judged} ${judged === 1 ? 'delivery' : 'deliveries'}: ${c.authentic} authentic, ${c.notAuthentic} not authentic`];
    parts.push(
      c.duplicates === 0
        ? 'no duplicates'
        : `${c.duplicates} ${c.duplicates === 1 ? 'duplicate' : 'duplicates'} (a body seen before: the sender's retries, which a receiver must handle once)`,
    );
    if (c.unreadable) parts.push(`${c.unreadable} unreadable`);
    if (c.skipped) parts.push(`${c.skipped} skipped`);
    hint(this.ctx, parts.join('; '));
  }
}

/** One file: a capture (one delivery) or a HAR file (one per signed POST entry, or its error). */
async function* verifyFile(
  named: Named,
  secrets: Secret[],
  judge: DeliveryJudge,
  ctx: Context,
  beforeWait: () => void,
): AsyncGenerator<Judged | CliError> {
  const { path } = named;
  const digest = new SecretsDigest(secrets);
  const read = await readDelivery(ctx.io, path, (chunk) => digest.update(chunk), {
    signal: ctx.signal,
    har: true,
    regularOnly: named.inFolder,
    beforeWait,
  });
  if (read.kind === 'capture') {
    const digests = digest.finish();
    const verdict = await judge.judgeStreamed(read.head.rawHeaders, digests, read.again);
    yield { verdict: { file: path, ...verdict }, key: digests[0]!.digest.toString('latin1') };
    return;
  }
  for (const entry of await harDeliveries(path, read.bytes, checkpoint(ctx.signal))) {
    if (entry instanceof CliError) {
      yield entry;
      continue;
    }
    const d = new SecretsDigest(secrets);
    d.update(entry.body);
    const digests = d.finish();
    const verdict = await judge.judgeBody(entry.rawHeaders, entry.body);
    yield { verdict: { file: entry.label, ...verdict }, key: digests[0]!.digest.toString('latin1') };
  }
}

const CAPTURE_NAME = /\.(http|har)$/i;

/**
 * The files named: a folder stands for its `*.http` and `*.har` files in name order (listen's names
 * sort by arrival); what in it is not a regular file is skipped. A folder that cannot be listed, or
 * holds none, is an error in its place in the list.
 */
function* captureFiles(paths: string[]): Generator<Named | CliError | { path: string; skipped: string }> {
  for (const path of paths) {
    const entries = folderEntries(path);
    if (entries === undefined) yield { path, inFolder: false };
    else if (entries instanceof CliError) yield entries;
    else if (entries.length === 0) yield new UsageError(`${path} is a folder with no *.http or *.har captures in it.`);
    else
      for (const e of entries) {
        const full = join(path, e.name);
        const what = notRegular(e, full);
        yield what === undefined ? { path: full, inFolder: true } : { path: full, skipped: what };
      }
  }
}

/** The capture entries of `path` when it is a folder; undefined when it is not one. */
function folderEntries(path: string): Dirent[] | CliError | undefined {
  if (path === '-') return undefined;
  try {
    if (!statSync(path).isDirectory()) return undefined;
  } catch {
    return undefined; // the read that follows says what is wrong with it
  }
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((e) => CAPTURE_NAME.test(e.name))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch (err) {
    return unreadable(path, err);
  }
}

/** What a folder entry is when it is not a regular file ("a FIFO"), from the listing (a link is followed). */
function notRegular(e: Dirent, full: string): string | undefined {
  if (e.isFile()) return undefined;
  let s: Dirent | ReturnType<typeof statSync> = e;
  if (e.isSymbolicLink()) {
    try {
      s = statSync(full);
    } catch {
      return undefined; // a dangling link: the read says so
    }
  }
  if (s.isFile()) return undefined;
  return s.isDirectory() ? 'a folder' : kindOf(s);
}
