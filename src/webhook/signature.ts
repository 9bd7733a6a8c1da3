// Signing and verifying deliveries: X-Service-Signature is "sha256=" + lowercase hex HMAC-SHA256 of the
// raw body, keyed with the endpoint's signing secret. Pure functions; no I/O.
import { createHmac, timingSafeEqual } from 'node:crypto';

export { SIGNATURE_HEADER, EVENT_HEADER, EVENTS, type EventName } from './events';

/** One signing secret and where it came from ("new.txt", "secrets.txt:2", "--secret #1"), for verdicts. */
export interface Secret {
  label: string;
  bytes: Buffer;
}

/** A streaming HMAC for bodies too large to hold: update() chunks, then digest(). */
export function createSigner(secret: string | Buffer) {
  return createHmac('sha256', secret);
}

/** Raw 32-byte HMAC-SHA256 of body. */
function hmacDigest(secret: string | Buffer, body: Uint8Array): Buffer {
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
  return m ? hexBytes(m[1]!) : undefined;
}

/**
 * The X-Service-Signature header's digest, read strictly as the service writes it: "sha256=" and 64
 * lowercase hex digits, nothing else. Anything else is not what the service sent, so the delivery is
 * not authentic; the string returned says what is wrong with it (the value is never echoed whole).
 */
export function parseSignatureHeader(value: string): Buffer | string {
  if (/^sha256=[0-9a-f]{64}$/.test(value)) return hexBytes(value.slice(7));
  if (value === '') return 'it is empty';
  const prefix = /^([A-Za-z0-9_-]{1,16})=/.exec(value)?.[1];
  if (prefix === undefined) return /^[0-9a-fA-F]{64}$/.test(value) ? 'it lacks the sha256= prefix' : 'it does not start with sha256=';
  if (prefix !== 'sha256') return `it starts with "${prefix}=", not sha256=`;
  const hex = value.slice(7);
  if (/[^0-9a-fA-F]/.test(hex)) return 'what follows sha256= is not hex digits';
  if (hex.length !== 64) return `${hex.length} hex digits after sha256=, not 64`;
  return 'it has upper-case hex digits';
}

/**
 * Hex digits already checked (either case) to bytes. Buffer.from(hex, 'hex') crosses into C++ and
 * costs ~3 µs a call here, more than hashing a capture: felt over thousands of captures in one run.
 */
function hexBytes(hex: string): Buffer {
  const out = Buffer.allocUnsafe(hex.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (nibble(hex.charCodeAt(2 * i)) << 4) | nibble(hex.charCodeAt(2 * i + 1));
  return out;
}

/** 0-9, a-f, A-F → 0..15 (the caller checked the digit). */
function nibble(c: number): number {
  return c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x57;
}

/** Constant-time comparison of two digests. */
export function digestsEqual(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}
