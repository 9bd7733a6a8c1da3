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
//
// The file is never parsed whole (har-scan.ts says why): its entries are parsed a batch at a time, a
// turn between batches, and of a signed POST entry only its index is kept, to parse it again when its
// delivery is asked for: beside the file's bytes, one batch and one entry are held. Every entry is
// parsed before the first delivery is handed out, so a file that is not JSON is still reported before
// any verdict. JSON.parse's message then says where in the piece it was parsed in: the entry, named.
import { checkpoint } from '../base/checkpoint';
import { UsageError } from '../base/errors';
import { isPlainObject } from '../base/plain-object';
import { BATCH_BYTES } from '../output/json-piece';
import { CAPTURE_LIMIT } from './capture';
import { harLayout } from './har-scan';
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

const BOM = Buffer.from('\uFEFF');

/**
 * The signed POST entries of a HAR file, each a delivery or the error that keeps it from being one,
 * made as they are asked for. Not HAR, or no signed POST entry in it → UsageError naming the file.
 * `turn()` comes between the steps of the read (Ctrl-C: it throws).
 */
export async function harDeliveries(
  name: string,
  bytes: Buffer,
  turn: () => Promise<void> = checkpoint(undefined),
): Promise<Iterable<HarDelivery | UsageError>> {
  const notHar = (why: string) =>
    new UsageError(
      `${name} is not a HAR file: ${why}.`,
      'A HAR file is the JSON that devtools, mitmproxy or Charles export ({"log": {"entries": [...]}}).',
    );
  const notJson = (why: string) => notHar(`it is not valid JSON (${why})`);
  // HAR is UTF-8, and the spec lets a tool write a BOM.
  const start = bytes.subarray(0, 3).equals(BOM) ? 3 : 0;
  const { bounds, cutShort } = await harLayout(bytes, start, turn);
  if (cutShort) throw notJson('it ends inside a string, object or array: is it cut short?');
  // The file with its entries left out (`"entries":[]`): a few KB in a HAR. A file without them (no HAR)
  // is parsed whole, as any was before; its error is one of the two below, or that it is not JSON.
  const around = bounds && bytes.toString('utf8', start, bounds[0]! + 1) + bytes.toString('utf8', bounds.at(-1)!);
  let doc: unknown;
  try {
    doc = JSON.parse(around ?? bytes.toString('utf8', start));
  } catch (err) {
    throw notJson(`${around ? 'around log.entries, a position here leaving them out: ' : ''}${(err as Error).message}`);
  }
  const entries = bounds ? await signedEntries(bytes, bounds, turn, notJson) : { count: 0, signed: [] };
  const log = isPlainObject(doc) ? doc.log : undefined;
  if (!isPlainObject(log)) throw notHar('it has no "log" object');
  // An array here is the one the walk found (the one left out), so `bounds` are its entries'.
  if (!Array.isArray(log.entries)) throw notHar('its log has no "entries" list');
  if (entries.signed.length === 0) {
    throw new UsageError(
      `${name} has no POST entry with an X-Service-Signature header (of ${entries.count} entries), nor another scheme's (X-Cal-Signature-256, Calendly-Webhook-Signature, Stripe-Signature, webhook-signature).`,
    );
  }
  return decoded(name, bytes, bounds!, entries.signed);
}

/**
 * Every entry parsed, ~BATCH_BYTES of them at a time (`[` + their bytes, commas included, + `]`) with a
 * turn between batches: how many there are, and the indices of the signed POST ones. An entry that is
 * no JSON → notJson naming it.
 */
async function signedEntries(
  bytes: Buffer,
  bounds: number[],
  turn: () => Promise<void>,
  notJson: (why: string) => UsageError,
): Promise<{ count: number; signed: number[] }> {
  const signed: number[] = [];
  let count = 0;
  for (let k = 0; k + 1 < bounds.length; ) {
    let j = k + 1;
    while (j + 1 < bounds.length && bounds[j + 1]! - bounds[k]! < BATCH_BYTES) j++;
    let batch: unknown[];
    try {
      batch = JSON.parse(`[${bytes.toString('utf8', bounds[k]! + 1, bounds[j])}]`) as unknown[];
    } catch {
      // Which entry, parsed alone; an empty one (`[{},,{}]`) is no JSON either.
      for (let e = k; e < j; e++) {
        try {
          JSON.parse(bytes.toString('utf8', bounds[e]! + 1, bounds[e + 1]));
        } catch (err) {
          throw notJson(`log.entries[${e}], from byte ${bounds[e]! + 1}: ${(err as Error).message}`);
        }
      }
      throw notJson(`log.entries[${k}] to [${j - 1}]`); // each alone is JSON: not reached
    }
    // Fewer only for `[ ]`: one stretch of whitespace between the brackets, no entry.
    for (let n = 0; n < batch.length; n++) if (signedPost(batch[n])) signed.push(k + n);
    count += batch.length;
    k = j;
    await turn();
  }
  return { count, signed };
}

/** A POST entry's request and its headers, when they carry a scheme's signature. */
function signedPost(entry: unknown): { request: Json; rawHeaders: string[] } | undefined {
  const request = isPlainObject(entry) ? entry.request : undefined;
  if (!isPlainObject(request) || typeof request.method !== 'string' || request.method.toUpperCase() !== 'POST') return undefined;
  const headers = Array.isArray(request.headers) ? request.headers : [];
  const rawHeaders: string[] = [];
  for (const h of headers)
    if (isPlainObject(h) && typeof h.name === 'string' && typeof h.value === 'string') rawHeaders.push(h.name, h.value);
  return carriesSignature(rawHeaders) ? { request, rawHeaders } : undefined;
}

/**
 * Each signed entry parsed again and its body decoded as it is asked for, not all first: the caller's
 * loop between two entries is where Ctrl-C is seen (src/base/checkpoint.ts), and only one entry is
 * held at a time.
 */
function* decoded(name: string, bytes: Buffer, bounds: number[], signed: number[]): Generator<HarDelivery | UsageError> {
  for (const k of signed) {
    const label = `${name}#${k}`;
    const { request, rawHeaders } = signedPost(JSON.parse(bytes.toString('utf8', bounds[k]! + 1, bounds[k + 1])))!;
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
