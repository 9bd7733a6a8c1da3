// `webhook send`: POSTs one signed delivery, as the service would, to a receiver under test. Exit 0
// when it answers 2xx, else 1.
import type { Context } from '../../context';
import { outputFormat } from '../../context';
import { ExitCode } from '../../errors';
import { curlCommand } from './send-curl';
import { checkSeriesOptions, checkSingleOptions, sendSeries, type SeriesOptions } from './send-series';
import { EVENT_HEADER, SIGNATURE_HEADER } from '../../webhook/signature';
import { outgoingDelivery, type BodyOptions } from './send-body';
import { parseHttpUrl, postRaw } from '../../webhook/post';
import { jsonText, paint, visible } from '../../webhook/text';

export interface SendOptions extends BodyOptions, Partial<Omit<SeriesOptions, 'url' | keyof BodyOptions>> {
  url: string;
  /** Print the delivery as a curl command instead of sending it. */
  printCurl?: boolean;
}

export async function sendDelivery(opts: SendOptions, ctx: Context): Promise<number> {
  if (opts.scenario !== undefined) {
    checkSeriesOptions(opts);
    return sendSeries({ ...opts, scenario: opts.scenario }, ctx);
  }
  checkSingleOptions(opts);
  const url = parseHttpUrl(opts.url, 'the receiver URL');
  const outgoing = await outgoingDelivery(opts, ctx);
  if (opts.printCurl) {
    ctx.io.stdout.write(curlCommand(url, outgoing));
    return ExitCode.OK;
  }
  const { event, body, signatures, contentType } = outgoing;
  const headers = ['Content-Type', contentType, 'User-Agent', 'booking-cli', headerName(EVENT_HEADER), event];
  for (const value of signatures) headers.push(headerName(SIGNATURE_HEADER), value);
  const signature = signatures[0] ?? null;
  const res = await postRaw(url, [...headers, 'Content-Length', String(body.length)], body, {
    timeoutMs: ctx.globals.timeoutMs,
    signal: ctx.signal,
  });
  const ok = res.status >= 200 && res.status < 300;

  const format = outputFormat(ctx);
  const out = ctx.io.stdout;
  if (format === 'json' || format === 'ndjson') {
    out.write(jsonText({ url: url.href, event, bytes: body.length, signature, status: res.status, ok }, format === 'json'));
  } else if (format === 'tsv') {
    out.write(`${res.status}\t${visible(res.statusText)}\t${visible(event)}\t${body.length}\n`);
  } else {
    const p = paint(ctx.io.color);
    const verdict = ok ? p.good(`✓ ${res.status} ${visible(res.statusText)}`) : p.bad(`✗ ${res.status} ${visible(res.statusText)}`);
    out.write(`${verdict}  ${visible(event)}  ${body.length} bytes  → ${visible(url.href)}\n`);
  }
  if (!ok) {
    const said = visible(res.body.toString('utf8').trim().slice(0, 200));
    ctx.io.stderr.write(
      `error: the receiver answered ${res.status}${res.statusText ? ` ${visible(res.statusText)}` : ''}${said ? `: ${said}` : ''}\n`,
    );
    return ExitCode.FAILURE;
  }
  return ExitCode.OK;
}

/** "x-service-event" → "X-Service-Event", as the service writes it. */
function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
