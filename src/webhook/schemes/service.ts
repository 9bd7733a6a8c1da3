// The seed's own scheme: X-Service-Signature: sha256=<lowercase hex HMAC-SHA256 of the raw body>, the
// event in X-Service-Event. Its verdicts are made by src/webhook/verdict.ts, as before schemes existed
// (a streaming pass with its own hints); this entry gives it the common shape, for sign, send,
// detection and the docs' table.
import { parseSignatureHeader, signatureHeader } from '../signature';
import { oneValue, type Scheme } from './scheme';

export const service: Scheme = {
  name: 'service',
  title: "the service's scheme",
  signatureHeader: 'X-Service-Signature',
  headers: ['X-Service-Event', 'X-Service-Signature'],
  signedString: 'body',
  encoding: 'hex',
  secretForm: 'the secret as given',
  timestamped: false,
  eventField: 'event',
  key: (secret) => secret,
  read(rawHeaders) {
    const { value, problem } = oneValue(rawHeaders, 'X-Service-Signature');
    if (problem) return { claims: [], problem };
    const parsed = parseSignatureHeader(value!);
    if (typeof parsed === 'string') return { claims: [], problem: `malformed X-Service-Signature header: ${parsed}` };
    return { claims: [{ label: 'sha256', digest: parsed }] };
  },
  prefix: () => Buffer.alloc(0),
  make: (key, body) => ['X-Service-Signature', signatureHeader(key, body)],
};
