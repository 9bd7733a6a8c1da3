// Signing a delivery in a scheme: the id and timestamp it signs (given, or fresh), and its headers.
import { freshId } from '../payload';
import type { Secret } from '../signature';
import type { Scheme, SignParts } from './scheme';

/** The id and timestamp to sign with: those given, else a fresh msg_ id and the time now. */
export function signParts(now: Date, given: { id?: string; timestamp?: number } = {}): SignParts {
  return { id: given.id ?? freshId('msg_'), timestamp: given.timestamp ?? Math.floor(now.getTime() / 1000) };
}

/** The scheme's signature headers for a body (a flat name/value list); a secret that is no key of the scheme throws UsageError. */
export function schemeHeaders(scheme: Scheme, secret: Secret, body: Uint8Array, parts: SignParts): string[] {
  return scheme.make(scheme.key(secret.bytes, secret.label), body, parts);
}

/**
 * What signs each delivery a sender makes (send, a scenario, the sandbox, watch --forward-to): every
 * header the scheme puts on it, the seed's X-Service-Event included, with the time of signing and a
 * fresh id (or the one given: watch's deterministic event id, so a repeat is recognised). The key is
 * made at once: a secret that is no key of the scheme throws UsageError before anything is sent.
 */
export function deliverySigner(
  scheme: Scheme,
  secret: Secret,
  now: () => Date,
): (body: Uint8Array, event: string, id?: string) => string[] {
  const key = scheme.key(secret.bytes, secret.label);
  return (body, event, id) => {
    const headers = scheme.make(key, body, signParts(now(), { id }));
    return scheme.name === 'service' ? ['X-Service-Event', event, ...headers] : headers;
  };
}
