// What `webhook send` sends: the body, the event and the signature, from one of three places — a
// built-in sample (fresh ids each time), the user's --body, or a saved capture (--request) replayed
// — with the --set overrides applied to its JSON.
import { closeSync } from 'node:fs';
import type { Context } from '../../context';
import { UsageError } from '../../errors';
import { readCapture } from '../../webhook/reader';
import { headerValues } from '../../webhook/capture';
import { openInput, readAll, type Input } from '../../webhook/input';
import { noteTerminalBody } from './terminal-note';
import { EVENTS, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader, type EventName } from '../../webhook/signature';
import { samplePayload } from '../../webhook/payload';
import { resolveSecret, SECRET_ENV, type SecretOptions } from './secret';
import { applySets, parsePayload, parseSet } from './send-set';
import { visible } from '../../webhook/text';

export interface BodyOptions extends SecretOptions {
  event?: string;
  /** FILE or "-" for stdin; the built-in sample for the event when absent. */
  body?: string;
  /** A saved capture to replay. */
  request?: string;
  /** PATH=VALUE overrides. */
  set?: string[];
}

export interface Outgoing {
  event: string;
  body: Buffer;
  /** X-Service-Signature values: one, or a replayed capture's own (none, or several, as it had them). */
  signatures: string[];
  contentType: string;
}

export async function outgoingDelivery(opts: BodyOptions, ctx: Context): Promise<Outgoing> {
  const sets = (opts.set ?? []).map(parseSet);
  if (opts.request !== undefined) return replayed(opts.request, opts, sets, ctx);
  const event = checkEvent(opts.event, opts.body !== undefined, ctx);
  // Opened first (a missing file is reported before any prompt), read after the secret: when both the
  // secret prompt and the body use the terminal, the body's Ctrl-D would end stdin before the prompt.
  const input = opts.body !== undefined ? openInput(ctx.io, opts.body) : undefined;
  let secret: Buffer;
  let body: Buffer;
  try {
    secret = await resolveSecret(opts, ctx, opts.body === '-');
    if (input) {
      body = await readBody(input, ctx);
      if (sets.length) body = withSets(parsePayload(body, opts.body === '-' ? 'stdin' : opts.body!), sets);
    } else {
      // Without --body, checkEvent has let through only the six names, which all have a sample.
      body = withSets(samplePayload(event as EventName, ctx.now()), sets);
    }
  } finally {
    if (input?.kind === 'file') closeSync(input.fd);
  }
  return { event, body, signatures: [signatureHeader(secret, body)], contentType: 'application/json' };
}

function withSets(payload: unknown, sets: ReturnType<typeof parseSet>[]): Buffer {
  applySets(payload, sets);
  return Buffer.from(JSON.stringify(payload));
}

/**
 * A capture's body and event, sent again: re-signed when a secret is given (--secret, --secret-file
 * or the environment; never a prompt), else with the capture's own signature, so that a delivery
 * from the real service can be replayed to a receiver that holds the real secret.
 */
async function replayed(path: string, opts: BodyOptions, sets: ReturnType<typeof parseSet>[], ctx: Context): Promise<Outgoing> {
  if (opts.body !== undefined) throw new UsageError(`a capture carries its own body: --body (${opts.body}) is not used with --request.`);
  const chunks: Buffer[] = [];
  // Copied: a file's chunks come in one reused buffer.
  const { head } = await readCapture(ctx.io, path, (chunk) => chunks.push(Buffer.from(chunk)), ctx.signal);
  let body: Buffer = Buffer.concat(chunks);
  const captured = headerValues(head.rawHeaders, EVENT_HEADER)[0]?.trim();
  const event = opts.event ?? captured;
  if (event === undefined || event === '') throw new UsageError(`${path} has no X-Service-Event header: give the event with --event.`);
  if (opts.event !== undefined) checkEvent(opts.event, true, ctx);
  if (sets.length) body = withSets(parsePayload(body, path), sets);
  const contentType = headerValues(head.rawHeaders, 'content-type')[0] ?? 'application/json';
  const secretGiven = opts.secret !== undefined || opts.secretFile !== undefined || ctx.env[SECRET_ENV] !== undefined;
  if (secretGiven) {
    const secret = await resolveSecret(opts, ctx, path === '-');
    return { event, body, signatures: [signatureHeader(secret, body)], contentType };
  }
  if (sets.length)
    throw new UsageError(`--set changes the body, so it must be signed again: give the secret (--secret-file, or ${SECRET_ENV}).`);
  const signatures = headerValues(head.rawHeaders, SIGNATURE_HEADER);
  if (signatures.length === 0)
    ctx.io.stderr.write(`warning: ${visible(path)} has no X-Service-Signature header and no secret is given: it is sent unsigned.\n`);
  return { event, body, signatures, contentType };
}

/**
 * The event to send. One the spec does not name is sent all the same when the body is the user's (to
 * test a receiver against a new or misspelt event), with a warning; without a body it is a usage
 * error, as there is no sample for it.
 */
function checkEvent(event: string | undefined, customBody: boolean, ctx: Context): string {
  const names = EVENTS.join(', ');
  if (event === undefined) throw new UsageError(`--event is required: one of ${names}.`);
  if ((EVENTS as readonly string[]).includes(event)) return event;
  // It becomes a header value: node refuses control characters there, and HTTP trims spaces.
  if (!/^[!-~]+$/.test(event))
    throw new UsageError(`--event "${visible(event)}" cannot be sent as a header: use printable ASCII without spaces.`);
  if (!customBody)
    throw new UsageError(
      `unknown event "${event}": there is no sample body for it; use one of ${names}, or give the body with --body FILE.`,
    );
  ctx.io.stderr.write(`warning: "${event}" is not one of the six events the service sends (${names}); sending it as given.\n`);
  return event;
}

/** The --body bytes, FILE or "-". A body typed on a terminal gets a note on how to end it; Ctrl-C stops the wait. */
function readBody(input: Input, ctx: Context): Promise<Buffer> {
  if (input.kind === 'stream') noteTerminalBody(ctx, input);
  return readAll(input, ctx.signal);
}
