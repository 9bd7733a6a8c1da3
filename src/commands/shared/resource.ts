// Single-resource responses arrive in unknown envelopes: `{...}`, `{"data": {...}}`,
// `{"status": "ok", "data": {"booking": {...}}}`. get and whoami print the resource itself.
import { isPlainObject } from '../../base/plain-object';

const ENVELOPE_KEYS = ['data', 'booking', 'result', 'item', 'record', 'user', 'owner', 'me', 'event_type', 'eventType'];
const IDENTITY_KEYS = ['uid', 'id', 'email', 'username', 'slug'];

/**
 * Unwraps up to two levels of envelope: an object with no identity field of its own whose only
 * object-valued member (among the usual envelope names) is the resource. Anything else is returned as is.
 */
export function unwrapResource(body: unknown): unknown {
  let current = body;
  for (let depth = 0; depth < 2; depth++) {
    if (!isPlainObject(current)) return current;
    const obj = current;
    if (IDENTITY_KEYS.some((k) => k in obj)) return obj;
    const candidates = ENVELOPE_KEYS.filter((k) => isPlainObject(obj[k]));
    if (candidates.length !== 1) return obj;
    current = obj[candidates[0]!];
  }
  return current;
}
