// Stripe's scheme (and the services that copy it): Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>…],
// the HMAC-SHA256 of "<t>.<body>" keyed with the endpoint's whsec_… secret as text. The event is the
// body's "type".
import { timestampedV1 } from './timestamped-v1';

export const stripe = timestampedV1('stripe', 'Stripe', 'Stripe-Signature');
