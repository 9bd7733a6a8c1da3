// `webhook send`: POSTs one signed delivery, as the service would, to a receiver under test. Exit 0
// when it answers 2xx, else 1.
import type { Context } from '../context';
import { outputFormat } from '../context';
import { ExitCode, UsageError } from '../errors';
import { readAllBytes } from '../input';
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
  const event = checkEvent(opts.event);
  const body = opts.body !== undefined ? await readAllBytes(ctx.io, opts.body) : Buffer.from(sampleDeliveryBody(event, ctx.now()));
  const secret = await resolveSecret(opts, ctx);
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

function checkEvent(event: string | undefined): EventName {
  const names = EVENTS.join(', ');
  if (event === undefined) throw new UsageError(`--event is required: one of ${names}.`);
  if (!(EVENTS as readonly string[]).includes(event)) throw new UsageError(`unknown event "${visible(event)}": use one of ${names}.`);
  return event as EventName;
}

/** "x-service-event" → "X-Service-Event", as the service writes it. */
function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
