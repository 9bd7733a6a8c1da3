// `webhook send`'s run: one signed delivery POSTed as the service would, or a series (--scenario).
import type { Context } from '../../context';
import { ExitCode } from '../../errors';
import { curlCommand } from './send-curl';
import { checkSeriesOptions, checkSingleOptions, sendSeries } from './send-series';
import { EVENT_HEADER, SIGNATURE_HEADER } from '../../webhook/signature';
import { outgoingDelivery } from './send-body';
import { parseHttpUrl, postRaw } from '../../webhook/post';
import { paint, visible } from '../../webhook/text';
import { createRecordWriter } from '../../output/records';
import { refuseShapingIn } from '../../output/shaping';
import type { SendOptions } from './send';

export async function sendDelivery(opts: SendOptions, ctx: Context): Promise<number> {
  if (opts.scenario !== undefined) {
    checkSeriesOptions(opts);
    return sendSeries({ ...opts, scenario: opts.scenario }, ctx);
  }
  checkSingleOptions(opts);
  if (opts.printCurl) refuseShapingIn(ctx.globals, '--print-curl', 'a shell command');
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
  const p = paint(ctx.io.color);
  // Made before the POST: a --fields typo is exit 2 before anything is sent.
  const out = await createRecordWriter(ctx, 'one', {
    keys: ['url', 'event', 'bytes', 'signature', 'status', 'ok'],
    // The URL as typed, its password masked by the output door like any other.
    data: (r: Answer) => ({ url: url.href, event, bytes: body.length, signature, status: r.status, ok: isOk(r) }),
    line: (r) => {
      const verdict = `${isOk(r) ? '✓' : '✗'} ${r.status} ${visible(r.statusText)}`;
      return `${(isOk(r) ? p.good : p.bad)(verdict)}  ${visible(event)}  ${body.length} bytes  → ${visible(url.href)}`;
    },
    tsv: (r) => [r.status, r.statusText, event, body.length],
  });
  const res = await postRaw(url, [...headers, 'Content-Length', String(body.length)], body, {
    timeoutMs: ctx.globals.timeoutMs,
    signal: ctx.signal,
  });
  const ok = isOk(res);

  await out.write(res);
  await out.end();
  if (!ok) {
    const said = visible(res.body.toString('utf8').trim().slice(0, 200));
    ctx.io.stderr.write(
      `error: the receiver answered ${res.status}${res.statusText ? ` ${visible(res.statusText)}` : ''}${said ? `: ${said}` : ''}\n`,
    );
    return ExitCode.FAILURE;
  }
  return ExitCode.OK;
}

interface Answer {
  status: number;
  statusText: string;
}

const isOk = (r: Answer) => r.status >= 200 && r.status < 300;

/** "x-service-event" → "X-Service-Event", as the service writes it. */
function headerName(lower: string): string {
  return lower.replace(/(^|-)([a-z])/g, (_m, dash: string, c: string) => dash + c.toUpperCase());
}
