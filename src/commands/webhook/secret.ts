// The signing secret, from the first source given: --secret, --secret-file, BOOKING_WEBHOOK_SECRET,
// or a hidden prompt on a terminal. Kept as bytes: a secret file is never decoded.
// fs.promises rather than node:fs/promises: the module loads on first use, not at start-up (~3 ms).
import { promises as fsp } from 'node:fs';
import type { Context } from '../../context';
import { UsageError } from '../../errors';
import { unreadable } from '../../input';
import { promptHidden } from '../../prompt';
import { openInput, readAll } from '../../webhook/input';

export const SECRET_ENV = 'BOOKING_WEBHOOK_SECRET';

/** Said (not a hint: -q keeps it) whenever the secret comes from the command line. */
const SECRET_ARGUMENT_WARNING = `warning: --secret on the command line can be read by other users of this machine (ps) and stays in shell history; use --secret-file FILE, ${SECRET_ENV}, or leave both out to be asked.`;

export interface SecretOptions {
  secret?: string;
  secretFile?: string;
}

/**
 * `stdinTaken`: stdin carries something else (the body, a capture), so `--secret-file -` cannot read
 * the secret from it.
 */
export async function resolveSecret(opts: SecretOptions, ctx: Pick<Context, 'io' | 'env' | 'signal'>, stdinTaken = false): Promise<Buffer> {
  if (opts.secret !== undefined && opts.secretFile !== undefined) {
    throw new UsageError('--secret and --secret-file are alternatives: give one.');
  }
  let secret: Buffer;
  let from: string;
  if (opts.secret !== undefined) {
    [secret, from] = [Buffer.from(opts.secret), '--secret'];
  } else if (opts.secretFile !== undefined) {
    [secret, from] =
      opts.secretFile === '-'
        ? [await readSecretStdin(ctx, stdinTaken), 'stdin']
        : [await readSecretFile(opts.secretFile), opts.secretFile];
  } else if (ctx.env[SECRET_ENV] !== undefined) {
    [secret, from] = [Buffer.from(ctx.env[SECRET_ENV]!), SECRET_ENV];
  } else {
    const typed = await promptHidden(
      ctx.io,
      'Webhook signing secret:',
      `give it with --secret-file FILE or ${SECRET_ENV} (--secret on the command line is visible in ps)`,
    );
    [secret, from] = [Buffer.from(typed), 'the prompt'];
  }
  if (secret.length === 0) throw new UsageError(`the webhook signing secret from ${from} is empty.`);
  // Secrets are issued as printable text; other bytes are a copy gone wrong (a CRLF file, a smart quote).
  const odd = secret.findIndex((b) => b < 0x20 || b > 0x7e);
  if (odd !== -1) {
    throw new UsageError(
      `the webhook signing secret from ${from} has a byte that is not printable ASCII (0x${secret[odd]!.toString(16).padStart(2, '0')} at byte ${odd + 1}); give the secret as the dashboard shows it.`,
    );
  }
  // After the checks: a secret that cannot be used gets its error alone.
  if (from === '--secret') ctx.io.stderr.write(`${SECRET_ARGUMENT_WARNING}\n`);
  if (/^\s|\s$/.test(secret.toString('latin1'))) {
    ctx.io.stderr.write(
      `warning: the signing secret from ${from} starts or ends with whitespace; it is used as given (the dashboard's secret has none, was it copied with a space or newline?).\n`,
    );
  }
  return secret;
}

/** The file's bytes less one trailing newline, as `echo secret > file` writes it. */
async function readSecretFile(path: string): Promise<Buffer> {
  let content: Buffer;
  try {
    content = await fsp.readFile(path);
  } catch (err) {
    throw unreadable(path, err);
  }
  return lessOneNewline(content);
}

/** `--secret-file -`: the secret piped in (`vault read ... | booking webhook verify --request ... --secret-file -`). */
async function readSecretStdin(ctx: Pick<Context, 'io' | 'signal'>, stdinTaken: boolean): Promise<Buffer> {
  if (stdinTaken) throw new UsageError('--secret-file - and the body both read stdin: give one of them as a file.');
  // Typed there, it would show on the screen: the prompt asks without echo.
  if (ctx.io.stdinIsTTY)
    throw new UsageError('--secret-file -: stdin is a terminal; leave --secret-file out to be asked for the secret without echo.');
  return lessOneNewline(await readAll(openInput(ctx.io, '-'), ctx.signal));
}

function lessOneNewline(content: Buffer): Buffer {
  return content.length > 0 && content[content.length - 1] === 0x0a ? content.subarray(0, -1) : content;
}
