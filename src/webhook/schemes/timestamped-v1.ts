// The "t=<unix>,v1=<hex>[,v1=<hex>…]" header that Calendly and Stripe both send, over "<t>.<body>",
// keyed with the secret's text as given (Stripe's whsec_… included: it is not decoded). Several v1
// entries come during a secret's rotation, one per secret; other schemes (v0) are ignored, as the
// vendors' libraries ignore them.
import { hmac, oneValue, readDigest, readTimestamp, type Claim, type Claimed, type Scheme } from './scheme';

export function timestampedV1(name: 'calendly' | 'stripe', title: string, header: string): Scheme {
  return {
    name,
    title,
    signatureHeader: header,
    headers: [header],
    signedString: 't.body',
    encoding: 'hex',
    secretForm: 'the secret as given (whsec_… included)',
    timestamped: true,
    eventField: name === 'stripe' ? 'type' : 'event',
    key: (secret) => secret,
    read: (rawHeaders) => readHeader(rawHeaders, header, title),
    prefix: (claimed) => Buffer.from(`${claimed.timestamp}.`),
    make: (key, body, { timestamp }) => [header, `t=${timestamp},v1=${hmac(key, Buffer.from(`${timestamp}.`), body).toString('hex')}`],
  };
}

function readHeader(rawHeaders: string[], header: string, title: string): Claimed {
  const { value, problem } = oneValue(rawHeaders, header);
  if (problem) return { claims: [], problem };
  const items = value!.split(',').map((item) => {
    const at = item.indexOf('=');
    return at === -1 ? { key: item.trim(), value: '' } : { key: item.slice(0, at).trim(), value: item.slice(at + 1).trim() };
  });
  const t = items.filter((i) => i.key === 't');
  const v1 = items.filter((i) => i.key === 'v1');
  const malformed = (why: string) => ({
    claims: [],
    problem: `malformed ${header} header: ${why} (${title} sends t=<unix time>,v1=<hex>)`,
  });
  if (t.length === 0) return malformed('it has no t= timestamp');
  if (t.length > 1) return malformed('it has more than one t=');
  const timestamp = readTimestamp(t[0]!.value, 't=');
  if (typeof timestamp === 'string') return malformed(timestamp);
  if (v1.length === 0) {
    const plain = /^(sha256=)?[0-9a-fA-F]{64}$/.test(value!);
    return malformed(plain ? 'it is a bare signature, with no t= and v1=' : 'it has no v1= signature');
  }
  const claims: Claim[] = [];
  const unreadable: string[] = [];
  v1.forEach((item, i) => {
    const claim = readDigest(item.value, 'hex', title, v1.length > 1 ? `v1 #${i + 1}` : 'v1');
    if (typeof claim === 'string') unreadable.push(claim);
    else claims.push(claim);
  });
  if (claims.length === 0) return { claims, timestamp, problem: `malformed ${header} header: ${unreadable.join('; ')}` };
  return { claims, timestamp };
}
