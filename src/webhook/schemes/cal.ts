// Cal.com: X-Cal-Signature-256: <lowercase hex HMAC-SHA256 of the raw body>, no prefix, keyed with
// the webhook's secret as given. An endpoint with no secret gets the literal "no-secret-provided".
// The event is the body's "triggerEvent" (BOOKING_CREATED, BOOKING_CANCELLED, …).
import { hmac, oneValue, readDigest, type Scheme } from './scheme';

const HEADER = 'X-Cal-Signature-256';
const NO_SECRET = 'no-secret-provided';

export const cal: Scheme = {
  name: 'cal',
  title: 'Cal.com',
  signatureHeader: HEADER,
  headers: [HEADER],
  signedString: 'body',
  encoding: 'hex',
  secretForm: 'the secret as given',
  timestamped: false,
  eventField: 'triggerEvent',
  key: (secret) => secret,
  read(rawHeaders) {
    const { value, problem } = oneValue(rawHeaders, HEADER);
    if (problem) return { claims: [], problem };
    if (value === NO_SECRET) {
      return {
        claims: [],
        problem: `${HEADER} is "${NO_SECRET}": the webhook has no secret in Cal.com, so nothing was signed (give it one in Cal.com's webhook settings)`,
        problemCode: 'no_secret',
      };
    }
    const claim = readDigest(value!, 'hex', 'Cal.com', HEADER);
    return typeof claim === 'string' ? { claims: [], problem: `malformed ${claim}` } : { claims: [claim] };
  },
  prefix: () => Buffer.alloc(0),
  make: (key, body) => [HEADER, hmac(key, Buffer.alloc(0), body).toString('hex')],
};
