// The signing secrets, from the first source given: --secret (repeatable), --secret-file (repeatable;
// a file holds one secret a line), BOOKING_WEBHOOK_SECRET (one secret a line), or a hidden prompt on a
// terminal. Several secrets are for rotation: `verify` and `listen` accept a delivery signed with any
// of them and name the one that matched; `send` and `sign` sign with the first. Kept as bytes: a
// secret file is never decoded. A secret file is read under SECRET_FILE_LIMIT, honouring Ctrl-C
// (a FIFO nobody writes to, /dev/zero, a terminal): see src/webhook/input.ts.
import { closeSync } from 'node:fs';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import { UsageError } from '../../../base/errors';
import { promptHidden } from '../../../output/prompt';
import { openInput, readAll } from '../../../webhook/input';
import type { Secret } from '../../../webhook/signature';

export const SECRET_ENV = 'BOOKING_WEBHOOK_SECRET';

/** The most a secret file (or a secret piped to `--secret-file -`) may hold: a few secrets a line. */
export const SECRET_FILE_LIMIT = 4 * 1024;

/** Said (not a hint: -q keeps it) whenever the secret comes from the command line. */
const SECRET_ARGUMENT_WARNING = `warning: --secret on the command line can be read by other users of this machine (ps) and stays in shell history; use --secret-file FILE, ${SECRET_ENV}, or leave both out to be asked.`;

export interface SecretOptions {
  /** A string when a caller (a test, another command) gives one; commander collects a list. */
  secret?: string | string[];
  secretFile?: string | string[];
}

/** A webhook command's options with --secret and --secret-file as a caller may also give them: one string each. */
export type WithSecrets<T> = Omit<T, keyof SecretOptions> & SecretOptions;

type SecretCtx = Pick<Context, 'io' | 'env' | 'signal' | 'globals'>;

/** One place secrets came from: its name, its bytes, and whether it holds one secret a line. */
interface Source {
  from: string;
  bytes: Buffer;
  lines: boolean;
}

/**
 * Every secret given, in order, each with its label. `stdinTaken`: stdin carries something else (the
 * body, a capture), so `--secret-file -` cannot read a secret from it. No secret → UsageError.
 */
export async function resolveSecrets(opts: SecretOptions, ctx: SecretCtx, stdinTaken = false): Promise<Secret[]> {
  const given = asList(opts.secret);
  const files = asList(opts.secretFile);
  if (given.length && files.length) {
    throw new UsageError('--secret and --secret-file are alternatives: give one of them (each may be repeated).');
  }
  let sources: Source[];
  if (given.length) {
    sources = given.map((s, i) => ({ from: given.length > 1 ? `--secret #${i + 1}` : '--secret', bytes: Buffer.from(s), lines: false }));
  } else if (files.length) {
    if (files.filter((f) => f === '-').length > 1) throw new UsageError('--secret-file - is given twice: stdin can be read once.');
    sources = [];
    for (const f of files)
      sources.push(
        f === '-'
          ? { from: 'stdin', bytes: await readSecretStdin(ctx, stdinTaken), lines: true }
          : { from: f, bytes: await readSecretFile(f, ctx), lines: true },
      );
  } else if (ctx.env[SECRET_ENV] !== undefined) {
    sources = [{ from: SECRET_ENV, bytes: Buffer.from(ctx.env[SECRET_ENV]!), lines: true }];
  } else {
    const typed = await promptHidden(
      ctx.io,
      'Webhook signing secret:',
      `give it with --secret-file FILE or ${SECRET_ENV} (--secret on the command line is visible in ps)`,
    );
    sources = [{ from: 'the prompt', bytes: Buffer.from(typed), lines: false }];
  }
  const secrets = sources.flatMap(secretsOf);
  // After the checks: a secret that cannot be used gets its error alone.
  if (given.length) ctx.io.stderr.write(`${SECRET_ARGUMENT_WARNING}\n`);
  for (const s of secrets) {
    if (/^\s|\s$/.test(s.bytes.toString('latin1'))) {
      ctx.io.stderr.write(
        `warning: the signing secret from ${s.label} starts or ends with whitespace; it is used as given (the dashboard's secret has none, was it copied with a space or newline?).\n`,
      );
    }
  }
  return secrets;
}

/**
 * The one secret that signs (`send`, `sign`): the first given. With several (a rotation file shared
 * with `verify`), a note names the one used.
 */
export async function resolveSecret(opts: SecretOptions, ctx: SecretCtx, stdinTaken = false): Promise<Buffer> {
  return (await resolveSigningSecret(opts, ctx, stdinTaken)).bytes;
}

/** As resolveSecret, with the secret's label (a scheme's key error names where the secret came from). */
export async function resolveSigningSecret(opts: SecretOptions, ctx: SecretCtx, stdinTaken = false): Promise<Secret> {
  const secrets = await resolveSecrets(opts, ctx, stdinTaken);
  if (secrets.length > 1) hint(ctx, `Signing with the first of ${secrets.length} secrets: ${secrets[0]!.label}.`);
  return secrets[0]!;
}

function asList(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

/**
 * The secrets of one source. A file or the environment holds one a line (empty lines are skipped, so
 * `echo secret > file` gives one secret); each is labelled with its line when there are several.
 */
function secretsOf(source: Source): Secret[] {
  const found: { bytes: Buffer; line: number }[] = [];
  if (!source.lines) found.push({ bytes: source.bytes, line: 1 });
  else {
    let start = 0;
    for (let line = 1; start <= source.bytes.length; line++) {
      let end = source.bytes.indexOf(0x0a, start);
      if (end === -1) end = source.bytes.length;
      if (end > start) found.push({ bytes: source.bytes.subarray(start, end), line });
      start = end + 1;
    }
  }
  if (found.length === 0 || found.every((f) => f.bytes.length === 0)) {
    throw new UsageError(`the webhook signing secret from ${source.from} is empty.`);
  }
  return found.map(({ bytes, line }) => {
    const label = found.length > 1 ? `${source.from}:${line}` : source.from;
    checkPrintable(bytes, label);
    return { label, bytes };
  });
}

/** Secrets are issued as printable text; other bytes are a copy gone wrong (a CRLF file, a smart quote). */
export function checkPrintable(secret: Buffer, from: string): void {
  const odd = secret.findIndex((b) => b < 0x20 || b > 0x7e);
  if (odd === -1) return;
  throw new UsageError(
    `the webhook signing secret from ${from} has a byte that is not printable ASCII (0x${secret[odd]!.toString(16).padStart(2, '0')} at byte ${odd + 1}); give the secret as the dashboard shows it.`,
  );
}

const LIMIT = { bytes: SECRET_FILE_LIMIT, bound: 'a secret file may hold' };

/**
 * A secret file's bytes, read without blocking the process: a FIFO with no writer yet waits for one,
 * and Ctrl-C ends the wait; /dev/zero is cut off at the limit. A terminal is refused: typed there, the
 * secret would show on the screen, which the prompt avoids.
 */
async function readSecretFile(path: string, ctx: SecretCtx): Promise<Buffer> {
  const input = openInput(ctx.io, path, LIMIT);
  try {
    if (input.kind === 'stream' && input.terminal) {
      throw new UsageError(`--secret-file ${path} is a terminal: leave --secret-file out to be asked for the secret without echo.`);
    }
    return await readAll(input, ctx.signal, LIMIT);
  } finally {
    if (input.kind === 'file') closeSync(input.fd);
  }
}

/** `--secret-file -`: the secret piped in (`vault read ... | booking webhook verify --request ... --secret-file -`). */
async function readSecretStdin(ctx: SecretCtx, stdinTaken: boolean): Promise<Buffer> {
  if (stdinTaken) throw new UsageError('--secret-file - and the body both read stdin: give one of them as a file.');
  // Typed there, it would show on the screen: the prompt asks without echo.
  if (ctx.io.stdinIsTTY)
    throw new UsageError('--secret-file -: stdin is a terminal; leave --secret-file out to be asked for the secret without echo.');
  return readAll(openInput(ctx.io, '-'), ctx.signal, LIMIT);
}
