// Signing and verifying deliveries: X-Service-Signature is "sha256=" + lowercase hex HMAC-SHA256 of the
// raw body, keyed with the endpoint's signing secret. Pure functions; no I/O.
import { createHmac, timingSafeEqual } from 'node:crypto';

export { SIGNATURE_HEADER, EVENT_HEADER, EVENTS, type EventName } from './events';

/** A streaming HMAC for bodies too large to hold: update() chunks, then digest(). */
export function createSigner(secret: string | Buffer) {
  return createHmac('sha256', secret);
}

/** Raw 32-byte HMAC-SHA256 of body. */
export function hmacDigest(secret: string | Buffer, body: Uint8Array): Buffer {
  return createSigner(secret).update(body).digest();
}

/** The header value for a body: "sha256=<64 lowercase hex>". */
export function signatureHeader(secret: string | Buffer, body: Uint8Array): string {
  return `sha256=${hmacDigest(secret, body).toString('hex')}`;
}

/**
 * Parses "sha256=<64 hex>" or bare "<64 hex>" (hex in either case) to the 32 digest bytes, or
 * undefined when it is anything else.
 */
export function parseSignature(value: string): Buffer | undefined {
  const m = /^(?:sha256=)?([0-9a-fA-F]{64})$/.exec(value.trim() === value ? value : '');
  return m ? Buffer.from(m[1]!, 'hex') : undefined;
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
