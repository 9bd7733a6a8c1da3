// `webhook send`: POSTs one signed delivery, as the service would, to a receiver under test. Exit 0
// when it answers 2xx, else 1.
import { closeSync, readFileSync } from 'node:fs';
import type { Context } from '../context';
import { outputFormat } from '../context';
import { ExitCode, UsageError } from '../errors';
import { unreadable } from '../input';
import { openInput, type Input } from './input-open';
import { readStreamChunks } from './stream-input';
import { noteTerminalBody } from './terminal-note';
import { EVENTS, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader, type EventName } from './signature';
import { sampleDeliveryBody } from './payload';
import { resolveSecret, type SecretOptions } from './secret';
import { parseHttpUrl, postRaw } from './post';
import { jsonText, paint, visible } from './text';

export interface SendOptions extends SecretOptions {
  url: string;
  event?: string;
  /** FILE or "-" for stdin; the built-in sample for the event when absent. */
  body?: string;
}

export async function sendDelivery(opts: SendOptions, ctx: Context): Promise<number> {
  const url = parseHttpUrl(opts.url, 'the receiver URL');
  const event = checkEvent(opts.event, opts.body !== undefined, ctx);
  // Opened first (a missing file is reported before any prompt), read after the secret: when both the
  // secret prompt and the body use the terminal, the body's Ctrl-D would end stdin before the prompt.
  const input = opts.body !== undefined ? openInput(ctx.io, opts.body) : undefined;
  let secret: Buffer;
  let body: Buffer;
  try {
    secret = await resolveSecret(opts, ctx, opts.body === '-');
    // Without --body, checkEvent has let through only the six names, which all have a sample.
    body = input ? await readBody(input, opts.body!, ctx) : Buffer.from(sampleDeliveryBody(event as EventName, ctx.now()));
  } finally {
    if (input?.kind === 'file') closeSync(input.fd);
  }
  const signature = signatureHeader(secret, body);
  const headers = ['Content-Type', 'application/json', 'User-Agent', 'booking-cli', headerName(EVENT_HEADER), event, headerName(SIGNATURE_HEADER), signature];
  const res = await postRaw(url, [...headers, 'Content-Length', String(body.length)], body, { timeoutMs: ctx.globals.timeoutMs, signal: ctx.signal });
  const ok = res.status >= 200 && res.status < 300;

  const format = outputFormat(ctx);
  const out = ctx.io.stdout;
  if (format === 'json' || format === 'ndjson') {
    out.write(jsonText({ url: url.href, event, bytes: body.length, signature, status: res.status, ok }, format === 'json'));
  } else if (format === 'tsv') {
    out.write(`${res.status}\t${visible(res.statusText)}\t${event}\t${body.length}\n`);
  } else {
    const p = paint(ctx.io.color);
    const verdict = ok ? p.good(`✓ ${res.status} ${visible(res.statusText)}`) : p.bad(`✗ ${res.status} ${visible(res.statusText)}`);
    out.write(`${verdict}  ${event}  ${body.length} bytes  → ${visible(url.href)}\n`);
  }
  if (!ok) {
    const said = visible(res.body.toString('utf8').trim().slice(0, 200));
    ctx.io.stderr.write(`error: the receiver answered ${res.status}${res.statusText ? ` ${visible(res.statusText)}` : ''}${said ? `: ${said}` : ''}\n`);
    return ExitCode.FAILURE;
  }
  return ExitCode.OK;
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
  if (!/^[!-~]+$/.test(event)) throw new UsageError(`--event "${visible(event)}" cannot be sent as a header: use printable ASCII without spaces.`);
  if (!customBody) throw new UsageError(`unknown event "${event}": there is no sample body for it; use one of ${names}, or give the body with --body FILE.`);
  ctx.io.stderr.write(`warning: "${event}" is not one of the six events the service sends (${names}); sending it as given.\n`);
  return event;
}

/** The --body bytes, FILE or "-". A body typed on a terminal gets a note on how to end it; Ctrl-C stops the wait. */
async function readBody(input: Input, path: string, ctx: Context): Promise<Buffer> {
  if (input.kind === 'file') {
    try {
      return readFileSync(input.fd);
    } catch (err) {
      throw unreadable(path, err);
    }
  }
  noteTerminalBody(ctx, input);
  const chunks: Buffer[] = [];
  await readStreamChunks(input, ctx.signal, (chunk) => chunks.push(chunk));
  return Buffer.concat(chunks);
}

/** "x-service-event" → "X-Service-Event", as the service writes it. */
function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
