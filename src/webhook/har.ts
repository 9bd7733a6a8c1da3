// Deliveries recorded by other tools as HAR (HTTP Archive 1.2: browser devtools, mitmproxy, Charles,
// Insomnia's export): every POST entry that carries a scheme's signature header (X-Service-Signature,
// X-Cal-Signature-256, Stripe-Signature, …: schemes/index.ts) is one delivery, labelled
// `file.har#N` with N its index in log.entries (from 0, as `jq '.log.entries[N]'` reads it).
//
// The body is request.postData.text: the text as UTF-8 bytes, or decoded when an `encoding` of
// "base64" says so. HAR 1.2 defines `encoding` on response.content only; tools that keep binary
// request bodies put it on postData too (the HAR 1.3 proposal), or as `_encoding` (1.2 allows custom
// fields that start with "_"): all three are read. A body that the HAR does not hold byte for byte
// (params only, a bodySize with no postData) cannot be verified: that entry is an error, not a verdict.
import { UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';
import { CAPTURE_LIMIT } from './capture';
import { carriesSignature } from './schemes/index';
import { formatBytes } from '../base/words';

/** The most a HAR file may hold: it is read whole (a 64 MiB body in base64 is 85 MiB). */
export const HAR_LIMIT = 128 * 1024 * 1024;

export interface HarDelivery {
  label: string;
  /** Names and values in order, as a capture's. */
  rawHeaders: string[];
  body: Buffer;
}

type Json = Record<string, unknown>;

/**
 * The signed POST entries of a HAR file, each a delivery or the error that keeps it from being one.
 * Not HAR, or no signed POST entry in it → UsageError naming the file.
 */
export function harDeliveries(name: string, bytes: Buffer): Iterable<HarDelivery | UsageError> {
  const notHar = (why: string) =>
    new UsageError(
      `${name} is not a HAR file: ${why}.`,
      'A HAR file is the JSON that devtools, mitmproxy or Charles export ({"log": {"entries": [...]}}).',
    );
  let doc: unknown;
  try {
    // HAR is UTF-8, and the spec lets a tool write a BOM.
    doc = JSON.parse(bytes.toString('utf8').replace(/^\uFEFF/, ''));
  } catch (err) {
    throw notHar(`it is not valid JSON (${(err as Error).message})`);
  }
  const log = isPlainObject(doc) ? doc.log : undefined;
  if (!isPlainObject(log)) throw notHar('it has no "log" object');
  if (!Array.isArray(log.entries)) throw notHar('its log has no "entries" list');
  const signed = (log.entries as unknown[]).flatMap((entry, i) => {
    const request = isPlainObject(entry) ? entry.request : undefined;
    if (!isPlainObject(request) || typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST') return [];
    const headers = Array.isArray(request.headers) ? request.headers : [];
    const rawHeaders: string[] = [];
    for (const h of headers)
      if (isPlainObject(h) && typeof h.name === 'string' && typeof h.value === 'string') rawHeaders.push(h.name, h.value);
    if (!carriesSignature(rawHeaders)) return [];
    return [{ label: `${name}#${i}`, rawHeaders, request }];
  });
  if (signed.length === 0) {
    throw new UsageError(
      `${name} has no POST entry with an X-Service-Signature header (of ${log.entries.length} entries), nor another scheme's (X-Cal-Signature-256, Calendly-Webhook-Signature, Stripe-Signature, webhook-signature).`,
    );
  }
  return decoded(signed);
}

/**
 * Each entry's body decoded as it is asked for, not all first: the caller's loop between two entries
 * is where Ctrl-C is seen (src/base/checkpoint.ts), and only one decoded body is held at a time.
 */
function* decoded(signed: { label: string; rawHeaders: string[]; request: Json }[]): Generator<HarDelivery | UsageError> {
  for (const { label, rawHeaders, request } of signed) {
    try {
      yield { label, rawHeaders, body: entryBody(label, request) };
    } catch (err) {
      if (!(err instanceof UsageError)) throw err;
      yield err;
    }
  }
}

function entryBody(label: string, request: Json): Buffer {
  const post = request.postData;
  if (post === undefined) {
    // No postData: a POST without a body, unless bodySize says there was one the tool left out.
    if (typeof request.bodySize === 'number' && request.bodySize > 0)
      throw new UsageError(`${label}: the HAR does not hold its body (bodySize ${request.bodySize}, no postData); it cannot be verified.`);
    return Buffer.alloc(0);
  }
  if (!isPlainObject(post)) throw new UsageError(`${label}: its postData is not an object.`);
  if (typeof post.text !== 'string') {
    throw new UsageError(
      `${label}: its postData has no "text"${Array.isArray(post.params) ? ' (only params)' : ''}: the HAR does not hold the raw body, which the signature is over.`,
    );
  }
  const encoding = post.encoding ?? post._encoding;
  const text = post.text;
  if (encoding === undefined || encoding === '') return bounded(label, Buffer.byteLength(text), () => Buffer.from(text, 'utf8'));
  if (typeof encoding !== 'string' || encoding.toLowerCase() !== 'base64')
    throw new UsageError(`${label}: its postData encoding "${String(encoding)}" is not one booking reads (base64).`);
  const b64 = text.replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(b64)) throw new UsageError(`${label}: its postData text is not base64, as its encoding says.`);
  return bounded(label, Math.floor((b64.length * 3) / 4), () => Buffer.from(b64, 'base64'));
}

/** The body, when its size (known before it is made) is within a capture's limit. */
function bounded(label: string, size: number, make: () => Buffer): Buffer {
  if (size > CAPTURE_LIMIT)
    throw new UsageError(`${label}: its body is larger than a capture may be (${formatBytes(CAPTURE_LIMIT)}); not checked.`);
  return make();
}
