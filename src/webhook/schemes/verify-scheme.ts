// The verdict on one delivery under a scheme other than the seed's (whose verdicts verdict.ts makes
// in a streaming pass): its headers and its body in memory (a capture is at most 64 MiB). Every secret
// against every signature the header claims, in constant time each; then the timestamp's age; then
// --event. The reason always names the scheme, so a mismatch under Stripe's reads apart from Cal.com's.
import type { Secret } from '../signature';
import { digestsEqual } from '../signature';
import { assertEvent, type HintCode, type Verdict } from '../verdict';
import { ageProblem, type AgeRule } from './age';
import { diagnose } from './diagnose';
import { hmac, type Claimed, type Scheme } from './scheme';

export interface SchemeJudgeOptions {
  secrets: Secret[];
  /** scheme.key() of each secret, made once per run (schemeKeys). */
  keys: Buffer[];
  age: AgeRule;
  expectedEvent?: string;
}

/** Each secret's key under the scheme; a secret that cannot be one is a UsageError (exit 2) before any verdict. */
export function schemeKeys(scheme: Scheme, secrets: Secret[]): Buffer[] {
  return secrets.map((s) => scheme.key(s.bytes, s.label));
}

export function judgeScheme(scheme: Scheme, rawHeaders: string[], body: Buffer, opts: SchemeJudgeOptions): Verdict {
  return assertEvent(judgeSignature(scheme, rawHeaders, body, opts), opts.expectedEvent, scheme.eventField);
}

function judgeSignature(scheme: Scheme, rawHeaders: string[], body: Buffer, opts: SchemeJudgeOptions): Verdict {
  const { secrets, keys } = opts;
  const several = secrets.length > 1;
  const claimed = scheme.read(rawHeaders);
  const base: Verdict = { authentic: false, event: eventOf(body, scheme.eventField), bytes: body.length, reason: null, hints: [] };
  const named = (v: Verdict, secret: string | null, signature: string | null): Verdict => {
    const out: Verdict = { ...v, scheme: scheme.name };
    if (several) out.secret = secret;
    if (claimed.claims.length > 1) out.signature = signature;
    return out;
  };
  const said = (text: string) => `${scheme.title}: ${text}`;
  if (claimed.problem !== undefined && claimed.claims.length === 0) {
    return named({ ...base, reason: said(claimed.problem), hints: claimed.problemCode ? [claimed.problemCode] : [] }, null, null);
  }
  const match = firstMatch(claimed, keys, scheme.prefix(claimed), body);
  if (match) {
    const claim = claimed.claims[match.claim]!;
    const label = secrets[match.key]!.label;
    if (claim.malformed !== undefined)
      return named(
        { ...base, reason: said(`${claim.malformed} (the digest itself matches the body)`), hints: ['encoding'] },
        label,
        claim.label,
      );
    const age = claimed.timestamp === undefined ? undefined : ageProblem(claimed.timestamp, opts.age);
    if (age)
      return named({ ...base, reason: said(`the signature matches the body, but ${age.text}`), hints: [age.code] }, label, claim.label);
    return named({ ...base, authentic: true }, label, claim.label);
  }
  const hints: HintCode[] = [];
  const parts = claimed.claims.flatMap((c) => (c.malformed === undefined ? [] : [c.malformed]));
  if (parts.length) hints.push('encoding');
  const found = diagnose(
    scheme,
    claimed,
    keys,
    secrets.map((s) => s.bytes),
    body,
  );
  if (found) {
    hints.push(found.code);
    parts.push(found.text);
  } else {
    const under = several ? ` under any of the ${secrets.length} secrets` : '';
    parts.push(`the signature does not match the body${under}: a different secret, or the body was changed`);
  }
  const age = claimed.timestamp === undefined ? undefined : ageProblem(claimed.timestamp, opts.age);
  if (age) {
    hints.push(age.code);
    parts.push(age.text);
  }
  return named({ ...base, reason: said(parts.join('; ')), hints }, null, null);
}

/** The first secret and signature that match, every pair compared (constant time, whatever matched). */
function firstMatch(claimed: Claimed, keys: Buffer[], prefix: Buffer, body: Buffer): { key: number; claim: number } | undefined {
  let found: { key: number; claim: number } | undefined;
  for (let k = 0; k < keys.length; k++) {
    const digest = hmac(keys[k]!, prefix, body);
    for (let c = 0; c < claimed.claims.length; c++)
      if (digestsEqual(claimed.claims[c]!.digest, digest) && !found) found = { key: k, claim: c };
  }
  return found;
}

/** The body's top-level string `field` (triggerEvent, type, event), or null. */
export function eventOf(body: Buffer, field: string): string | null {
  if (body.length === 0 || body.length > 8 * 1024 * 1024) return null;
  try {
    const value = JSON.parse(body.toString('utf8')) as unknown;
    const event = value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[field] : undefined;
    return typeof event === 'string' ? event : null;
  } catch {
    return null;
  }
}
