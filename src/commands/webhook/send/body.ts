// What `webhook send` sends: the body, the event and the signature, from one of three places — a
// built-in sample (fresh ids each time), the user's --body, or a saved capture (--request) replayed
// — with the --set overrides applied to its JSON.
import { closeSync } from 'node:fs';
import type { Context } from '../../../context';
import { UsageError } from '../../../base/errors';
import { readCapture } from '../../../webhook/reader';
import { CAPTURE_LIMIT, headerValues } from '../../../webhook/capture';
import { openInput, readAll, readStreamChunks, type Input } from '../../../webhook/input';
import { noteTerminalBody } from '../shared/terminal-note';
import { EVENTS, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader, type EventName } from '../../../webhook/signature';
import { samplePayload } from '../../../webhook/payload';
import { resolveSecret, resolveSigningSecret, SECRET_ENV, type SecretOptions } from '../shared/secret';
import { schemeNamed, schemesIn, type SchemeName } from '../../../webhook/schemes/index';
import type { Scheme } from '../../../webhook/schemes/scheme';
import { schemeEvent, shapeBody } from '../../../webhook/schemes/payloads';
import { deliverySigner } from '../../../webhook/schemes/sign';
import { eventOf } from '../../../webhook/schemes/verify-scheme';
import { applySets, checkPayload, parseSet, type SetField } from './set';
import { visible } from '../../../webhook/text';

export interface BodyOptions extends SecretOptions {
  event?: string;
  /** FILE or "-" for stdin; the built-in sample for the event when absent. */
  body?: string;
  /** A saved capture to replay. */
  request?: string;
  /** PATH=VALUE overrides. */
  set?: string[];
  /** --scheme: sign in it (the seed's when absent). */
  scheme?: SchemeName;
}

export interface Outgoing {
  event: string;
  body: Buffer;
  /** X-Service-Signature values: one, or a replayed capture's own (none, or several, as it had them). */
  signatures: string[];
  contentType: string;
  /** A replayed capture's own headers, as received (for --print-curl). */
  captured?: string[];
  /** --scheme other than the seed's: its name, and its headers (a flat list), sent instead of X-Service-*. */
  scheme?: string;
  schemeHeaders?: string[];
}

/** The scheme --scheme names, when it is not the seed's (whose path is the one send always had). */
const otherScheme = (opts: BodyOptions): Scheme | undefined =>
  opts.scheme !== undefined && opts.scheme !== 'service' ? schemeNamed(opts.scheme) : undefined;

/** The largest body `send` reads (--body, a capture's body): the limit captures have everywhere. */
const SEND_BODY_LIMIT = CAPTURE_LIMIT;
/** A --body file bigger than the limit is refused as opened, unread; a stream as it passes it. */
const BODY_FILE = { bytes: SEND_BODY_LIMIT, bound: 'a body send reads may be' };

export async function outgoingDelivery(opts: BodyOptions, ctx: Context): Promise<Outgoing> {
  const sets = (opts.set ?? []).map(parseSet);
  if (opts.request !== undefined) return replayed(opts.request, opts, sets, ctx);
  const event = checkEvent(opts.event, opts.body !== undefined, ctx);
  // Opened first (a missing file is reported before any prompt), read after the secret: when both the
  // secret prompt and the body use the terminal, the body's Ctrl-D would end stdin before the prompt.
  const input = opts.body !== undefined ? openInput(ctx.io, opts.body, BODY_FILE) : undefined;
  const scheme = otherScheme(opts);
  let secret: Buffer;
  let body: Buffer;
  let signer: ReturnType<typeof deliverySigner> | undefined;
  try {
    const signing = await resolveSigningSecret(opts, ctx, opts.body === '-');
    secret = signing.bytes;
    // Made before the body is read: a secret that is no key of the scheme is exit 2 at once.
    if (scheme) signer = deliverySigner(scheme, signing, () => ctx.now());
    if (input) {
      body = await readBody(input, ctx);
      if (sets.length) body = withSets(body, opts.body === '-' ? 'stdin' : opts.body!, sets);
    } else {
      // Without --body, checkEvent has let through only the six names, which all have a sample.
      const json = JSON.stringify(samplePayload(event as EventName, ctx.now()));
      body = applySets(Buffer.from(scheme ? shapeBody(scheme, json) : json), sets);
    }
  } finally {
    if (input?.kind === 'file') closeSync(input.fd);
  }
  if (scheme && signer) {
    const named = input ? event : schemeEvent(scheme, event);
    return { event: named, body, signatures: [], contentType: 'application/json', scheme: scheme.name, schemeHeaders: signer(body, event) };
  }
  return { event, body, signatures: [signatureHeader(secret, body)], contentType: 'application/json' };
}

function withSets(body: Buffer, from: string, sets: SetField[]): Buffer {
  checkPayload(body, from);
  return applySets(body, sets);
}

/**
 * A capture's body and event, sent again: re-signed when a secret is given (--secret, --secret-file
 * or the environment; never a prompt), else with the capture's own signature, so that a delivery
 * from the real service can be replayed to a receiver that holds the real secret.
 */
async function replayed(path: string, opts: BodyOptions, sets: SetField[], ctx: Context): Promise<Outgoing> {
  if (opts.body !== undefined) throw new UsageError(`a capture carries its own body: --body (${opts.body}) is not used with --request.`);
  const chunks: Buffer[] = [];
  // Copied: a file's chunks come in one reused buffer. The reader bounds the body itself (CAPTURE_LIMIT,
  // the limit of captures everywhere: exit 2 naming the capture before anything is sent).
  const { head } = await readCapture(ctx.io, path, (chunk) => chunks.push(Buffer.from(chunk)), ctx.signal);
  let body: Buffer = Buffer.concat(chunks);
  checkHeaderBytes(head.rawHeaders, path);
  // Without --scheme, a capture of another scheme (no X-Service-Signature, a Stripe-Signature) is
  // replayed in its own, as verify recognises it.
  const scheme = otherScheme(opts) ?? (opts.scheme === undefined ? schemesIn(head.rawHeaders)[0] : undefined);
  if (scheme && scheme.name !== 'service') return replayedInScheme(scheme, path, head.rawHeaders, body, opts, sets, ctx);
  const captured = headerValues(head.rawHeaders, EVENT_HEADER)[0]?.trim();
  const event = opts.event ?? captured;
  if (event === undefined || event === '') throw new UsageError(`${path} has no X-Service-Event header: give the event with --event.`);
  if (opts.event !== undefined) checkEvent(opts.event, true, ctx);
  if (sets.length) body = withSets(body, path, sets);
  const contentType = headerValues(head.rawHeaders, 'content-type')[0] ?? 'application/json';
  const secretGiven = opts.secret !== undefined || opts.secretFile !== undefined || ctx.env[SECRET_ENV] !== undefined;
  if (secretGiven) {
    const secret = await resolveSecret(opts, ctx, path === '-');
    return { event, body, signatures: [signatureHeader(secret, body)], contentType, captured: head.rawHeaders };
  }
  if (sets.length)
    throw new UsageError(`--set changes the body, so it must be signed again: give the secret (--secret-file, or ${SECRET_ENV}).`);
  const signatures = headerValues(head.rawHeaders, SIGNATURE_HEADER);
  if (signatures.length === 0)
    ctx.io.stderr.write(`warning: ${visible(path)} has no X-Service-Signature header and no secret is given: it is sent unsigned.\n`);
  return { event, body, signatures, contentType, captured: head.rawHeaders };
}

/**
 * A capture replayed with --scheme X: its event from the body's field for X (or --event), re-signed in
 * X with a secret (its message id kept), else sent with its own X headers as captured (a real sender's, to a receiver that
 * holds the real secret; a timestamped one is as old as the capture).
 */
async function replayedInScheme(
  scheme: Scheme,
  path: string,
  rawHeaders: string[],
  captured: Buffer,
  opts: BodyOptions,
  sets: SetField[],
  ctx: Context,
): Promise<Outgoing> {
  const event = opts.event ?? eventOf(captured, scheme.eventField);
  if (event === null)
    throw new UsageError(`${path} has no "${scheme.eventField}" field in its body (${scheme.title}): give the event with --event.`);
  const body = sets.length ? withSets(captured, path, sets) : captured;
  const contentType = headerValues(rawHeaders, 'content-type')[0] ?? 'application/json';
  const base = { event, body, signatures: [], contentType, captured: rawHeaders, scheme: scheme.name };
  const secretGiven = opts.secret !== undefined || opts.secretFile !== undefined || ctx.env[SECRET_ENV] !== undefined;
  if (secretGiven) {
    const signer = deliverySigner(scheme, await resolveSigningSecret(opts, ctx, path === '-'), () => ctx.now());
    // A replay is the sender's retry: the capture's message id (Standard Webhooks' webhook-id, the
    // receiver's key for dropping repeats) is kept; only the timestamp and signature are new.
    return { ...base, schemeHeaders: signer(body, event, scheme.read(rawHeaders).id) };
  }
  if (sets.length)
    throw new UsageError(`--set changes the body, so it must be signed again: give the secret (--secret-file, or ${SECRET_ENV}).`);
  const own: string[] = [];
  for (const name of scheme.headers) for (const value of headerValues(rawHeaders, name.toLowerCase())) own.push(name, value);
  if (!headerValues(rawHeaders, scheme.signatureHeader.toLowerCase()).length)
    ctx.io.stderr.write(`warning: ${visible(path)} has no ${scheme.signatureHeader} header and no secret is given: it is sent unsigned.
`);
  return { ...base, schemeHeaders: own };
}

/**
 * A capture's header that cannot be sent: a control byte in its value (a tab is fine). Node would
 * refuse it at the request, which reads as "cannot reach"; it is bad input, named here.
 */
function checkHeaderBytes(rawHeaders: string[], path: string): void {
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const odd = /[\x00-\x08\x0a-\x1f\x7f]/.exec(rawHeaders[i + 1]!);
    if (odd)
      throw new UsageError(
        `${visible(path)}: its ${visible(rawHeaders[i]!)} header has a control byte (0x${odd[0].charCodeAt(0).toString(16).padStart(2, '0')}) in its value, which no request can carry; fix or remove that header.`,
      );
  }
}

/** A sink guard: passes chunks through until they add up to more than the limit, then refuses the input. */
function bytesUnder(name: string): (chunk: Buffer) => Buffer {
  let size = 0;
  return (chunk) => {
    size += chunk.length;
    if (size > SEND_BODY_LIMIT) throw tooLarge(name);
    return chunk;
  };
}

function tooLarge(name: string): UsageError {
  return new UsageError(`${visible(name)}: the body is over ${SEND_BODY_LIMIT / 1024 / 1024} MiB, the most send reads; nothing was sent.`);
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

/**
 * The --body bytes, FILE or "-", up to SEND_BODY_LIMIT: a larger file was refused as opened, a
 * stream is as soon as it passes the limit. A body typed on a terminal gets a note on how to end it;
 * Ctrl-C stops the wait.
 */
async function readBody(input: Input, ctx: Context): Promise<Buffer> {
  if (input.kind === 'file') return readAll(input, ctx.signal);
  noteTerminalBody(ctx, input);
  const chunks: Buffer[] = [];
  const bounded = bytesUnder(input.name);
  await readStreamChunks(input, ctx.signal, (chunk) => chunks.push(bounded(chunk)));
  return Buffer.concat(chunks);
}
