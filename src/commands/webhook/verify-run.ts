// `webhook verify`: a body with --signature, or raw request captures with --request, each checked in
// one streaming pass. Exit 0 when every delivery is authentic, 1 when any is not, 2 for usage errors
// and unreadable input (an unreadable capture is reported and the others are still checked).
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../../context';
import { unreadable } from '../../input';
import { CliError, ExitCode, InterruptedError, UsageError } from '../../errors';
import type { IOStreams } from '../../io';
import { parseSignature } from '../../webhook/signature';
import { BodyDigest } from '../../webhook/body-digest';
import { bodySource, readCapture } from '../../webhook/reader';
import { noteTerminalBody } from './terminal-note';
import { resolveSecret, type SecretOptions } from './secret';
import { fromHeaders, judge, type Verdict } from '../../webhook/verdict';
import { verdictWriter } from './verify-output';
import { visible } from '../../webhook/text';
import { BodyHead } from '../../webhook/body-head';

export interface VerifyOptions extends SecretOptions {
  file?: string;
  signature?: string;
  request?: string[];
  event?: string;
}

export async function verifyDeliveries(opts: VerifyOptions, ctx: Context): Promise<number> {
  if (opts.request && opts.signature !== undefined)
    throw new UsageError('--signature and --request are alternatives: a capture carries its own signature.');
  if (opts.request && opts.file !== undefined)
    throw new UsageError(`a capture carries its own body: FILE (${opts.file}) is not used with --request.`);
  if (!opts.request && opts.signature === undefined) {
    throw new UsageError(
      'nothing to check against: give --signature SIG (the body from FILE or stdin) or --request CAPTURE…',
      'See `booking webhook verify --help`.',
    );
  }
  if (opts.event !== undefined && opts.event.trim() === '')
    throw new UsageError('--event must not be empty: give the event you expect, such as booking.created.');
  return opts.request ? verifyCaptures(opts.request, opts, ctx) : verifyBody(opts.signature!, opts, ctx);
}

async function verifyBody(signature: string, opts: VerifyOptions, ctx: Context): Promise<number> {
  const expected = parseSignature(signature);
  if (!expected) {
    const shown = signature.length > 80 ? `${signature.slice(0, 80)}…` : signature;
    throw new UsageError(`--signature "${visible(shown)}" is not sha256=<64 hex> or 64 hex digits.`);
  }
  const source = bodySource(ctx.io, opts.file, ctx.signal);
  const secret = await resolveSecret(opts, ctx, opts.file === undefined || opts.file === '-');
  const digest = new BodyDigest(secret);
  const head = new BodyHead();
  noteTerminalBody(ctx, source);
  await source.read((chunk) => {
    digest.update(chunk);
    head.add(chunk);
  });
  const verdict = await judge({
    secret,
    expected,
    digests: digest.finish(),
    again: source.again(),
    event: head.event(),
    expectedEvent: opts.event,
  });
  const out = await verdictWriter(ctx, false);
  await out.write(verdict);
  await out.end();
  return verdict.authentic ? ExitCode.OK : ExitCode.FAILURE;
}

async function verifyCaptures(paths: string[], opts: VerifyOptions, ctx: Context): Promise<number> {
  const secret = await resolveSecret(opts, ctx, paths.includes('-'));
  const out = await verdictWriter(ctx, true);
  let code: number = ExitCode.OK;
  let hintShown = false;
  for (const file of captureFiles(paths)) {
    let verdict: Verdict;
    try {
      if (file instanceof CliError) throw file;
      verdict = await verifyCapture(file, secret, opts.event, ctx);
    } catch (err) {
      // Ctrl-C ends the run; any other error is about this one capture.
      if (!(err instanceof CliError) || err instanceof InterruptedError) throw err;
      out.flush();
      // The message names the file: a name is text from outside, escaped like every line.
      ctx.io.stderr.write(`error: ${visible(err.message)}\n`);
      if (err.hint && !hintShown) ctx.io.stderr.write(`${err.hint.split('\n').map(visible).join('\n')}\n`);
      hintShown ||= Boolean(err.hint);
      code = ExitCode.USAGE;
      continue;
    }
    await out.write(verdict);
    if (!verdict.authentic && code === ExitCode.OK) code = ExitCode.FAILURE;
  }
  await out.end();
  return code;
}

/**
 * The captures named: a folder stands for its `*.http` files in name order (listen's names sort by
 * arrival). A folder that cannot be listed, or holds none, is an error in its place in the list.
 */
function* captureFiles(paths: string[]): Generator<string | CliError> {
  for (const path of paths) {
    const names = folderCaptures(path);
    if (names === undefined) yield path;
    else if (names instanceof CliError) yield names;
    else if (names.length === 0) yield new UsageError(`${path} is a folder with no *.http captures in it.`);
    else for (const name of names) yield join(path, name);
  }
}

/** The `*.http` names in `path` when it is a folder; undefined when it is not one. */
function folderCaptures(path: string): string[] | CliError | undefined {
  if (path === '-') return undefined;
  try {
    if (!statSync(path).isDirectory()) return undefined;
  } catch {
    return undefined; // the read that follows says what is wrong with it
  }
  try {
    return readdirSync(path)
      .filter((n) => n.endsWith('.http'))
      .sort();
  } catch (err) {
    return unreadable(path, err);
  }
}

/** One capture: parsed and hashed in a single pass; parsed again only to explain a mismatch. */
async function verifyCapture(
  file: string,
  secret: Buffer,
  expectedEvent: string | undefined,
  ctx: { io: IOStreams; signal?: AbortSignal },
): Promise<Verdict> {
  const digest = new BodyDigest(secret);
  const { head, again } = await readCapture(ctx.io, file, (chunk) => digest.update(chunk), ctx.signal);
  const verdict = await judge({ secret, ...fromHeaders(head.rawHeaders), digests: digest.finish(), again, expectedEvent });
  return { file, ...verdict };
}
