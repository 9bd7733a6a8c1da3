// Standard Webhooks (Svix and the services built on its spec): webhook-id, webhook-timestamp and
// webhook-signature: v1,<base64> [v1,<base64> …] (space-separated, one per secret during a rotation),
// or the same three named svix-id, svix-timestamp and svix-signature, as Svix itself sends them,
// the HMAC-SHA256 of "<id>.<timestamp>.<body>". The secret is whsec_<base64>: the key is the decoded
// bytes, not the text. The event is the body's "type".
import { UsageError } from '../../base/errors';
import { visible } from '../text';
import { hmac, oneValue, readDigest, readTimestamp, valuesOf, type Claim, type Scheme } from './scheme';

const PREFIX = 'whsec_';
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The key a whsec_ secret stands for, or why it stands for none (exit 2: no delivery can be judged with it). */
function standardKey(secret: Buffer, label: string): Buffer {
  const text = secret.toString('latin1');
  const prefixed = text.startsWith(PREFIX);
  const b64 = prefixed ? text.slice(PREFIX.length) : text;
  const after = prefixed ? ' after whsec_' : '';
  const why =
    b64 === ''
      ? 'nothing follows whsec_'
      : !BASE64.test(b64)
        ? /[-_]/.test(b64)
          ? 'it is base64url (- or _), not base64'
          : b64.length % 4 !== 0
            ? `its ${b64.length} ${b64.length === 1 ? 'character' : 'characters'}${after} are not a whole number of base64 groups of 4`
            : `"${visible(firstBad(b64))}" is not a base64 character`
        : undefined;
  if (why !== undefined) {
    throw new UnusableSecret(`the secret from ${label} is not a Standard Webhooks secret (whsec_ and the base64 of the key): ${why}.`);
  }
  return Buffer.from(b64, 'base64');
}

/** A secret that is no key of the scheme: no delivery can be judged with it, so a run stops (exit 2). */
export class UnusableSecret extends UsageError {}

const firstBad = (b64: string) => [...b64].find((c) => !/[A-Za-z0-9+/=]/.test(c)) ?? '=';

export const standard: Scheme = {
  name: 'standard',
  title: 'Standard Webhooks',
  signatureHeader: 'webhook-signature',
  signatureAliases: ['svix-signature'],
  headers: ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'svix-id', 'svix-timestamp', 'svix-signature'],
  signedString: 'id.t.body',
  encoding: 'base64',
  secretForm: 'whsec_<base64>: the decoded bytes',
  timestamped: true,
  eventField: 'type',
  key: standardKey,
  read(rawHeaders) {
    // Svix's own names when the delivery has them and not the spec's.
    const p =
      valuesOf(rawHeaders, 'webhook-signature').length === 0 && valuesOf(rawHeaders, 'svix-signature').length > 0 ? 'svix' : 'webhook';
    const sig = oneValue(rawHeaders, `${p}-signature`);
    const id = oneValue(rawHeaders, `${p}-id`);
    const ts = oneValue(rawHeaders, `${p}-timestamp`);
    const problems = [sig.problem, id.problem, ts.problem].filter((p) => p !== undefined);
    const timestamp = ts.value === undefined ? undefined : readTimestamp(ts.value, `${p}-timestamp`);
    if (typeof timestamp === 'string') problems.push(timestamp);
    if (problems.length) return { claims: [], problem: problems.join('; ') };
    const entries = sig.value!.split(' ').filter((e) => e !== '');
    const claims: Claim[] = [];
    const unreadable: string[] = [];
    const v1 = entries.filter((e) => e.startsWith('v1,'));
    v1.forEach((entry, i) => {
      const claim = readDigest(entry.slice(3), 'base64', 'Standard Webhooks', v1.length > 1 ? `v1 #${i + 1}` : 'v1');
      if (typeof claim === 'string') unreadable.push(claim);
      else claims.push(claim);
    });
    const base = { id: id.value!, timestamp: timestamp as number };
    if (claims.length) return { ...base, claims };
    const why = unreadable.length
      ? unreadable.join('; ')
      : /^(v1=|sha256=|t=)/.test(sig.value!)
        ? `it is written "${sig.value!.slice(0, sig.value!.indexOf('=') + 1)}…", not "v1,<base64>"`
        : 'it has no v1,<base64> entry';
    return {
      ...base,
      claims,
      problem: `malformed ${p}-signature header: ${why} (Standard Webhooks sends v1,<base64>, space-separated)`,
    };
  },
  prefix: (claimed) => Buffer.from(`${claimed.id}.${claimed.timestamp}.`),
  make: (key, body, { id, timestamp }) => [
    'webhook-id',
    id,
    'webhook-timestamp',
    String(timestamp),
    'webhook-signature',
    `v1,${hmac(key, Buffer.from(`${id}.${timestamp}.`), body).toString('base64')}`,
  ],
};
