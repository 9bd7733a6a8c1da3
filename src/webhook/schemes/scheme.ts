// What a signing scheme is, as data and a few functions: the headers it reads, the string it signs,
// how the digest is written, what form the secret takes, how to make its headers. One file per scheme
// (service.ts, cal.ts, calendly.ts, stripe.ts, standard.ts) implements it; verify-scheme.ts judges a
// delivery with any of them, diagnose.ts says why one does not match.
import { createHmac } from 'node:crypto';
import type { SchemeName } from './names';

/** One signature a delivery claims: "v1 #2" when its header holds several. */
export interface Claim {
  label: string;
  digest: Buffer;
  /** Written otherwise than the scheme writes it (hex for base64, a prefix): not authentic even when it matches. */
  malformed?: string;
}

/** What a delivery's headers claim under a scheme. */
export interface Claimed {
  claims: Claim[];
  /** Why no signature can be checked at all (a header missing or repeated, nothing readable). */
  problem?: string;
  /** Machine code for `problem` when it is one of the diagnoses (`no_secret`). */
  problemCode?: 'no_secret';
  /** Unix seconds, for timestamped schemes. */
  timestamp?: number;
  id?: string;
}

export interface SignParts {
  id: string;
  /** Unix seconds. */
  timestamp: number;
}

export interface Scheme {
  name: SchemeName;
  /** For reasons and docs: "Cal.com", "Standard Webhooks". */
  title: string;
  /** The header that carries the signature, as the vendor writes its name; recognises a capture. */
  signatureHeader: string;
  /** Other names of it that recognise a capture too (Svix's svix-signature for Standard Webhooks). */
  signatureAliases?: readonly string[];
  /** Every header it reads, as written. */
  headers: readonly string[];
  /** The signed string, as the docs write it: "body", "t.body", "id.t.body". */
  signedString: string;
  encoding: 'hex' | 'base64';
  /** How the secret is used as the HMAC key, for docs and diagnoses. */
  secretForm: string;
  timestamped: boolean;
  /** The body's top-level field that names the event (the seed's service sends it in a header instead). */
  eventField: string;
  /** The HMAC key made from a secret's bytes; a UsageError when the secret cannot be one (bad base64). */
  key(secret: Buffer, label: string): Buffer;
  read(rawHeaders: string[]): Claimed;
  /** The bytes signed before the body ("<t>." or "<id>.<t>."; none for body-only schemes). */
  prefix(claimed: Pick<Claimed, 'id' | 'timestamp'>): Buffer;
  /** The delivery's signature headers as a flat name/value list, in the order the vendor sends them. */
  make(key: Buffer, body: Uint8Array, parts: SignParts): string[];
}

/** HMAC-SHA256 of prefix + body. */
export function hmac(key: Buffer, prefix: Uint8Array, body: Uint8Array): Buffer {
  return createHmac('sha256', key).update(prefix).update(body).digest();
}

/** The values of a header (`name` in any case) in a flat name/value list. */
export function valuesOf(rawHeaders: string[], name: string): string[] {
  const lower = name.toLowerCase();
  const out: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    // The length first: most names differ in it, and then no lower-case copy is made (every capture
    // of a folder is looked at by each scheme, to recognise its own).
    const n = rawHeaders[i]!;
    if (n.length === lower.length && n.toLowerCase() === lower) out.push(trimOws(rawHeaders[i + 1]!));
  }
  return out;
}

/** HTTP drops the spaces and tabs around a value: they are not part of it. */
const trimOws = (v: string) => v.replace(/^[ \t]+|[ \t]+$/g, '');

/** The one value of a header a delivery carries once, or what is wrong with it. */
export function oneValue(rawHeaders: string[], name: string): { value?: string; problem?: string } {
  const values = valuesOf(rawHeaders, name);
  if (values.length === 0) return { problem: `no ${name} header` };
  if (values.length > 1) return { problem: `more than one ${name} header` };
  if (values[0] === '') return { problem: `empty ${name} header` };
  return { value: values[0]! };
}

const HEX64 = /^[0-9a-f]{64}$/;
const HEX64_ANY = /^[0-9a-fA-F]{64}$/;
const BASE64_32 = /^[A-Za-z0-9+/]{43}=$/;

/**
 * One signature value written in `encoding`; also read when it is written in the other one (or in
 * upper-case hex), with the mistake named, so the diagnosis can say whether the digest itself matches.
 */
export function readDigest(value: string, encoding: 'hex' | 'base64', title: string, label: string): Claim | string {
  if (encoding === 'hex' && HEX64.test(value)) return { label, digest: Buffer.from(value, 'hex') };
  if (encoding === 'base64' && BASE64_32.test(value)) return { label, digest: Buffer.from(value, 'base64') };
  const wrote = `${title} writes ${encoding === 'hex' ? '64 lowercase hex digits' : '44 characters of base64'}`;
  if (HEX64_ANY.test(value))
    return { label, digest: Buffer.from(value, 'hex'), malformed: `${label} is ${HEX64.test(value) ? 'hex' : 'upper-case hex'}; ${wrote}` };
  if (BASE64_32.test(value)) return { label, digest: Buffer.from(value, 'base64'), malformed: `${label} is base64; ${wrote}` };
  if (value.startsWith('sha256=') && HEX64_ANY.test(value.slice(7)))
    return { label, digest: Buffer.from(value.slice(7), 'hex'), malformed: `${label} has a sha256= prefix; ${wrote} and no prefix` };
  return `${label} is neither hex nor base64 of a SHA-256 digest (${value.length} characters)`;
}

/** A decimal Unix time in seconds, or why it is not one. */
export function readTimestamp(value: string, where: string): number | string {
  if (!/^\d{1,12}$/.test(value)) return `${where} "${value.slice(0, 40)}" is not a Unix time in seconds`;
  return Number(value);
}
