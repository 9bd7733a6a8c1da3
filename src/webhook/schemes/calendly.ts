// Calendly: Calendly-Webhook-Signature: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">, keyed with the
// webhook subscription's signing key as given. The event is the body's "event" (invitee.created, …).
import { timestampedV1 } from './timestamped-v1';

export const calendly = timestampedV1('calendly', 'Calendly', 'Calendly-Webhook-Signature');
