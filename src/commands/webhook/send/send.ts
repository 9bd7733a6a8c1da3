// `booking webhook send`: POSTs one signed delivery, as the service would, to a receiver under test
// (or a series of them with --scenario). Exit 0 when it answers 2xx, else 1.
import type { RunResult } from '../../deps';
import { defineCommand, option, type OptionsOf } from '../../define';
import type { Context } from '../../../context';
import { ExitCode } from '../../../base/errors';
import { refuseShapingIn } from '../../../output/shaping';
import { EVENTS, SCENARIOS } from '../../../webhook/events';
import { collect, intOption, durationOption } from '../../../base/options';
import { MAX_DELAY_MS, MAX_DUPLICATE } from './limits';
import type { WithSecrets } from '../shared/secret';
import { secretOptions } from '../shared/secret-options';
import { schemeOption } from '../shared/scheme-options';

export const newCmdSend = defineCommand({
  name: 'send',
  description: 'POST a signed delivery to a URL (a built-in sample body per event, with a fresh id, unless --body or --request)',
  arguments: [['<url>', 'the receiver, e.g. http://127.0.0.1:8787/webhooks']],
  options: [
    option('--event <name>', `the event: ${EVENTS.join(', ')}`),
    option('--body <file>', 'the raw body to send ("-" for stdin)'),
    option(
      '--set <path=value>',
      'override a field of the JSON payload (repeatable): data.booking.status=cancelled; VALUE is JSON when it parses',
      collect(String),
    ),
    option(
      '--request <capture>',
      "replay a saved capture's body and event (re-signed when a secret is given, else with its own signature)",
    ),
    option('--print-curl', 'print the delivery as a curl command that sends it byte for byte, instead of sending it'),
    option('--scenario <name|file>', `send a series for one booking: ${Object.keys(SCENARIOS).join(', ')}, or a JSON file of steps`),
    option(
      '--duplicate <n>',
      `with --scenario: send each delivery N times, byte-identical, as a retry (at most ${MAX_DUPLICATE})`,
      intOption(1, MAX_DUPLICATE),
    ),
    option('--shuffle', 'with --scenario: send the deliveries out of order'),
    option('--seed <seed>', 'with --shuffle: the order to repeat (the summary prints the seed of a run)'),
    option(
      '--delay <duration>',
      'with --scenario: wait this long between deliveries (250ms, 2s; at most 60s)',
      durationOption(MAX_DELAY_MS),
    ),
    schemeOption('sign in this scheme (default service); with --request, re-sign in it, or send its own headers'),
    ...secretOptions(),
  ],
  notes: '\nExit status: 0 when the receiver answers 2xx (every delivery, with --scenario), else 1.',
  examples: [
    'booking webhook send http://127.0.0.1:8787/webhooks --event booking.created --set data.booking.status=pending --secret-file new-secret.txt --secret-file old-secret.txt',
    'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook send http://127.0.0.1:8787/webhooks --event booking.cancelled --body cancelled.json',
    'booking webhook send http://127.0.0.1:3000/webhooks --request booking-captures/20261125T093607.608Z-0001-booking.created.http --print-curl',
    'booking webhook send http://127.0.0.1:8787/webhooks --scheme stripe --scenario lifecycle --duplicate 2 --shuffle --seed 7 --delay 500ms --secret-file stripe-secret.txt',
  ],
  run: (opts, ctx): RunResult => runSend(opts, ctx),
});

/** The flags as run gets them; --delay in milliseconds. */
export type SendOptions = WithSecrets<OptionsOf<typeof newCmdSend>>;

export async function runSend(opts: SendOptions, ctx: Context): Promise<number> {
  // Loaded when it runs, not when it is declared: `webhook send --help` need not load the webhook library.
  const [
    { curlCommand },
    { checkSeriesOptions, checkSingleOptions, sendSeries },
    { EVENT_HEADER, SIGNATURE_HEADER },
    { outgoingDelivery },
    { parseHttpUrl, postRaw },
    { paint, visible },
    { createRecordWriter },
    { waitingNote },
  ] = await Promise.all([
    import('./curl'),
    import('./series'),
    import('../../../webhook/signature'),
    import('./body'),
    import('../../../webhook/post'),
    import('../../../webhook/text'),
    import('../../../output/records'),
    import('../../../output/waiting'),
  ]);
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
  const { event, body, signatures, contentType, schemeHeaders, scheme } = outgoing;
  const headers = ['Content-Type', contentType, 'User-Agent', 'booking-cli'];
  if (schemeHeaders) headers.push(...schemeHeaders);
  else headers.push(headerName(EVENT_HEADER), event);
  for (const value of signatures) headers.push(headerName(SIGNATURE_HEADER), value);
  // Another scheme's signature is the value of its signature header (the last of its headers).
  const signature = (schemeHeaders ? schemeHeaders.at(-1) : signatures[0]) ?? null;
  const p = paint(ctx.io.color);
  // Made before the POST: a --fields typo is exit 2 before anything is sent.
  const out = await createRecordWriter(ctx, 'one', {
    keys: ['url', 'event', 'bytes', 'signature', 'status', 'ok', 'scheme'],
    // The URL as typed, its password masked by the output door like any other.
    data: (r: Answer) => ({
      url: url.href,
      event,
      bytes: body.length,
      signature,
      status: r.status,
      ok: isOk(r),
      ...(scheme ? { scheme } : {}),
    }),
    line: (r) => {
      const verdict = `${isOk(r) ? '✓' : '✗'} ${r.status} ${visible(r.statusText)}`;
      return `${(isOk(r) ? p.good : p.bad)(verdict)}  ${visible(event)}  ${body.length} bytes  → ${visible(url.href)}`;
    },
    // The table line's order: status, its text, event, bytes, the URL (its password masked by the door).
    tsv: (r) => [r.status, r.statusText, event, body.length, url.href],
  });
  // A receiver that takes its time is said to, on a terminal (src/output/waiting.ts), not waited on in silence.
  const waited = waitingNote(ctx, `POST ${url.pathname}`, url.host);
  const res = await postRaw(url, [...headers, 'Content-Length', String(body.length)], body, {
    timeoutMs: ctx.globals.timeoutMs,
    signal: ctx.signal,
  }).finally(waited);
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
