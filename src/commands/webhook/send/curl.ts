// `webhook send … --print-curl`: the delivery `send` would make, as a curl command instead: the body
// byte for byte and the headers (a replayed capture's own, in their order, less those that describe
// its connection), quoted so that any shell runs it as printed and the terminal shows only printable
// ASCII. The body goes through printf, whose format writes any byte (NUL included) from an octal
// escape, into `curl --data-binary @-`; POSIX sh, bash, zsh and dash all read it the same.
import type { Outgoing } from './body';
import { UsageError } from '../../../base/errors';
import { formatBytes } from '../../../base/words';

// Headers curl sets from the command itself, or that describe the captured connection.
const NOT_REPLAYED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'expect',
  'te',
  'trailer',
  'upgrade',
  'x-service-signature',
  'x-service-event',
]);

// A delivery in another scheme (send --scheme) has that scheme's headers made anew, in place of these.
const SCHEME_HEADERS = [
  'x-cal-signature-256',
  'calendly-webhook-signature',
  'stripe-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
  'svix-id',
  'svix-timestamp',
  'svix-signature',
];

export function curlCommand(url: URL, out: Outgoing): string {
  if (out.body.length > MAX_CURL_BODY)
    throw new UsageError(
      `--print-curl: the body is ${out.body.length} bytes, over the ${formatBytes(MAX_CURL_BODY)} a printed command holds; nothing was printed.`,
      'send it without --print-curl, or with curl --data-binary @FILE',
    );
  const headers: [string, string][] = [];
  const notReplayed = out.schemeHeaders ? new Set([...NOT_REPLAYED, ...SCHEME_HEADERS]) : NOT_REPLAYED;
  if (out.captured) {
    for (let i = 0; i + 1 < out.captured.length; i += 2)
      if (!notReplayed.has(out.captured[i]!.toLowerCase())) headers.push([out.captured[i]!, out.captured[i + 1]!]);
  } else {
    headers.push(['Content-Type', out.contentType], ['User-Agent', 'booking-cli']);
  }
  if (out.schemeHeaders)
    for (let i = 0; i + 1 < out.schemeHeaders.length; i += 2) headers.push([out.schemeHeaders[i]!, out.schemeHeaders[i + 1]!]);
  else headers.push(['X-Service-Event', out.event]);
  for (const s of out.signatures) headers.push(['X-Service-Signature', s]);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  // An empty value removes a header curl would add of its own (`Content-Type:` its form default).
  const removed = ['Content-Type', 'Accept', 'User-Agent'].filter((n) => !has(n.toLowerCase()));
  const args = [
    ...headers.flatMap(([n, v]) => ['-H', shellQuote(`${n}: ${v}`)]),
    ...[...removed, 'Expect'].flatMap((n) => ['-H', shellQuote(`${n}:`)]),
  ];
  return `printf ${printfFormat(out.body)} | curl -sS --data-binary @- ${args.join(' ')} ${shellQuote(url.href)}\n`;
}

/**
 * The most body a printed command holds: its printf format takes up to four bytes a byte (an octal
 * escape), so 8 MiB is a command of up to 32 MB, made and masked in a fraction of a second. A bigger
 * body (a capture may be 64 MiB) made a command of up to 256 MB in tens of seconds and gigabytes that
 * Ctrl-C could not stop; `send` itself replays it, and curl reads a file with `--data-binary @FILE`.
 */
export const MAX_CURL_BODY = 8 * 1024 * 1024;

const QUOTE = 0x27;
const PERCENT = 0x25;
const BACKSLASH = 0x5c;
const DASH = 0x2d;

/** A printf format that writes exactly these bytes, in single quotes: made in one pass over them. */
function printfFormat(body: Buffer): string {
  const out = Buffer.allocUnsafe(body.length * 4 + 2);
  let at = 0;
  out[at++] = QUOTE;
  for (let i = 0; i < body.length; i++) {
    const b = body[i]!;
    // A leading "-" would read as an option of printf.
    if (b >= 0x20 && b <= 0x7e && b !== QUOTE && b !== PERCENT && b !== BACKSLASH && !(i === 0 && b === DASH)) out[at++] = b;
    else if (b === PERCENT || b === BACKSLASH) {
      out[at++] = b;
      out[at++] = b;
    } else {
      out[at++] = BACKSLASH;
      out[at++] = 0x30 + (b >> 6);
      out[at++] = 0x30 + ((b >> 3) & 7);
      out[at++] = 0x30 + (b & 7);
    }
  }
  out[at++] = QUOTE;
  return out.toString('latin1', 0, at);
}

/**
 * One shell word: single quotes for printable ASCII; $'…' with \xHH escapes for anything else (a
 * header value's tab or latin1 byte), which bash, zsh and ksh read.
 */
function shellQuote(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return `'${text.replace(/'/g, "'\\''")}'`;
  let out = "$'";
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    if (ch === '\\' || ch === "'") out += `\\${ch}`;
    else if (c >= 0x20 && c <= 0x7e) out += ch;
    else out += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return `${out}'`;
}
