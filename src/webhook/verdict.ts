// The verdict on one delivery: authentic or not, and on a mismatch the likely causes that are true.
// The authentic path costs nothing beyond the single streaming pass; the causes are worked out only
// after a mismatch, and a second pass over the body is made only when it has a CR or a BOM to blame.
import { EVENT_HEADER, SIGNATURE_HEADER, digestsEqual, parseSignatureHeader, type Secret } from './signature';
import { headerValues } from './capture';
import { BodyDigest, VariantDigest, type BodyDigests } from './body-digest';
import type { Sink } from './input';

// The first five are the seed's scheme's; the others come from the other schemes' diagnoses
// (src/webhook/schemes/diagnose.ts, verify-scheme.ts).
export type HintCode =
  | 'trailing_lf'
  | 'trailing_crlf'
  | 'crlf'
  | 'bom'
  | 'event'
  | 'reserialised'
  | 'signed_string'
  | 'secret_form'
  | 'encoding'
  | 'no_secret'
  | 'expired'
  | 'future';

export interface Verdict {
  /** The capture file, for `--request`. */
  file?: string;
  authentic: boolean;
  event: string | null;
  bytes: number | null;
  /** Why it is not authentic; null when it is. */
  reason: string | null;
  /** Machine-readable codes of the causes found on a mismatch. */
  hints: HintCode[];
  /** With several secrets (a rotation): the label of the one that matched, null when none did. */
  secret?: string | null;
  /** With --request: the capture whose body this one repeats, null when none. */
  duplicateOf?: string | null;
  /** The scheme checked (--scheme, or another than the seed's found in the headers); absent for the seed's by default. */
  scheme?: string;
  /** Other schemes whose signature headers the delivery also carries (--scheme picks one of them). */
  otherSchemes?: string[];
  /** With several signatures in the header (a rotation): the one that matched ("v1 #2"), null when none. */
  signature?: string | null;
}

/** The one value of a header that a delivery carries exactly once, or what is wrong with it. */
function singleHeader(values: string[], name: string): { value: string | null; problem?: string } {
  // Only the spaces and tabs around a value are dropped: HTTP says they are not part of it.
  const value = values[0]?.replace(/^[ \t]+|[ \t]+$/g, '') ?? null;
  if (values.length === 0) return { value, problem: `no ${name} header` };
  if (values.length > 1) return { value, problem: `more than one ${name} header` };
  return { value };
}

/**
 * The expected digest from a signature header's values, or why there is none. Strict, unlike
 * --signature: the spec defines the header as sha256= and lowercase hex, and a malformed one makes the
 * delivery not authentic.
 */
function expectedFromHeader(values: string[]): Buffer | string {
  const name = 'X-Service-Signature';
  const { value, problem } = singleHeader(values, name);
  if (problem) return problem;
  const parsed = parseSignatureHeader(value!);
  return typeof parsed === 'string'
    ? `malformed ${name} header: ${parsed} (the service sends sha256= and 64 lowercase hex digits)`
    : parsed;
}

/**
 * The X-Service-Event header of a capture or delivery: the event, and what is wrong with the header
 * when something is. The contract counts a missing or malformed one against the delivery, like the
 * signature header: every delivery the service sends carries exactly one.
 */
function eventFromHeader(values: string[]): { event: string | null; problem?: string } {
  const name = 'X-Service-Event';
  const { value: event, problem } = singleHeader(values, name);
  if (problem) return { event, problem };
  return event === '' ? { event, problem: `empty ${name} header` } : { event };
}

/** A headers-level judgement: the signature and event headers of one delivery. */
export function fromHeaders(rawHeaders: string[]): Pick<JudgeInput, 'expected' | 'event' | 'eventProblem'> {
  const { event, problem } = eventFromHeader(headerValues(rawHeaders, EVENT_HEADER));
  return { expected: expectedFromHeader(headerValues(rawHeaders, SIGNATURE_HEADER)), event, eventProblem: problem };
}

/** One streaming pass over a body for every secret given (BodyDigest per secret). */
export class SecretsDigest {
  private readonly each: BodyDigest[];

  constructor(secrets: Secret[]) {
    this.each = secrets.map((s) => new BodyDigest(s.bytes));
  }

  update(chunk: Uint8Array): void {
    for (const d of this.each) d.update(chunk);
  }

  finish(): BodyDigests[] {
    return this.each.map((d) => d.finish());
  }
}

/** The verdict on a delivery held in memory (listen, a HAR entry): its headers and body bytes. */
export function judgeBody(secrets: Secret[], rawHeaders: string[], body: Buffer, expectedEvent?: string): Promise<Verdict> {
  const digest = new SecretsDigest(secrets);
  digest.update(body);
  const again = async (sink: Sink) => sink(body);
  return judge({ secrets, ...fromHeaders(rawHeaders), digests: digest.finish(), again, expectedEvent });
}

export interface JudgeInput {
  /** Every secret given; a delivery signed with any of them is authentic. */
  secrets: Secret[];
  /** The digest the signature claims, or why it could not be read. */
  expected: Buffer | string;
  /** One per secret, in the same order (SecretsDigest). */
  digests: BodyDigests[];
  /** Streams the body again, for the rewrite hints; undefined when it cannot. */
  again: ((sink: Sink) => Promise<void>) | undefined;
  event: string | null;
  /** --event, when given. */
  expectedEvent?: string;
  /** What is wrong with the X-Service-Event header (eventFromHeader): the delivery is then not authentic. */
  eventProblem?: string;
}

export async function judge(input: JudgeInput): Promise<Verdict> {
  const verdict = await judgeSecrets(input);
  if (input.eventProblem !== undefined) {
    // A signature that is missing or wrong is the graver fault: it is named first.
    if (!verdict.authentic) return { ...verdict, reason: `${verdict.reason}; ${input.eventProblem}` };
    return { ...verdict, authentic: false, reason: `${input.eventProblem} (the signature matches the body)` };
  }
  return assertEvent(verdict, input.expectedEvent);
}

/**
 * --event is an assertion: `verify --event X && handle` must not handle a valid delivery of another
 * event. `field`: the body's field the event is read from (a scheme's), for the reason when it has none.
 */
export function assertEvent(verdict: Verdict, expectedEvent: string | undefined, field = 'event'): Verdict {
  if (!verdict.authentic || expectedEvent === undefined || verdict.event === expectedEvent) return verdict;
  const why =
    verdict.event === null
      ? `the body has no "${field}" field to check --event "${expectedEvent}" against`
      : `the delivery is "${verdict.event}", not "${expectedEvent}" (--event)`;
  return { ...verdict, authentic: false, reason: `${why}; its signature is valid`, hints: ['event'] };
}

/**
 * The signature against every secret. Each is compared in constant time, and all of them are, whatever
 * matched first. With several secrets the verdict names the one that matched (`secret`); when none
 * did, the causes come from the first secret that has one (a body with a newline added matches
 * without it under the secret that signed it, not under the others).
 */
async function judgeSecrets(input: JudgeInput): Promise<Verdict> {
  const { secrets, digests, expected } = input;
  const several = secrets.length > 1;
  const name = (v: Verdict, label: string | null): Verdict => (several ? { ...v, secret: label } : v);
  if (typeof expected !== 'string') {
    let match = -1;
    for (let i = 0; i < secrets.length; i++) if (digestsEqual(digests[i]!.digest, expected) && match === -1) match = i;
    if (match !== -1) {
      return name({ authentic: true, event: input.event, bytes: digests[0]!.bytes, reason: null, hints: [] }, secrets[match]!.label);
    }
  }
  let first: Verdict | undefined;
  for (let i = 0; i < secrets.length; i++) {
    const v = await judgeSignature(input, secrets[i]!.bytes, digests[i]!);
    if (several && v.hints.some((h) => h !== 'event'))
      return name({ ...v, reason: `${v.reason} (with the secret from ${secrets[i]!.label})` }, null);
    first ??= v;
    if (typeof expected === 'string') break;
  }
  if (several && first!.hints.length === 0 && typeof expected !== 'string') {
    first = {
      ...first!,
      reason: `the signature does not match the body under any of the ${secrets.length} secrets: a different secret, or the body was changed`,
    };
  }
  return name(first!, null);
}

async function judgeSignature(input: JudgeInput, secret: Buffer, digests: BodyDigests): Promise<Verdict> {
  const { expected, event } = input;
  const base = { event, bytes: digests.bytes };
  if (typeof expected === 'string') return { authentic: false, ...base, reason: expected, hints: [] };
  if (digestsEqual(digests.digest, expected)) return { authentic: true, ...base, reason: null, hints: [] };

  const hints: HintCode[] = [];
  if (digests.withoutCRLF && digestsEqual(digests.withoutCRLF, expected)) hints.push('trailing_crlf');
  else if (digests.withoutLF && digestsEqual(digests.withoutLF, expected)) hints.push('trailing_lf');
  if (hints.length === 0 && (digests.hasCR || digests.startsWithBOM) && input.again) {
    const variants = new VariantDigest(secret);
    await input.again((chunk) => variants.update(chunk));
    const v = variants.finish();
    if (digests.hasCR) hints.push(...rewriteHints('crlf', v.crlfToLf, expected));
    if (digests.startsWithBOM) hints.push(...rewriteHints('bom', v.withoutBOM, expected));
  }
  if (input.expectedEvent !== undefined && event !== null && event !== input.expectedEvent) hints.push('event');
  const reason = hints.length
    ? reasonText(hints, input)
    : 'the signature does not match the body: a different secret, or the body was changed';
  return { authentic: false, ...base, reason, hints };
}

/** `rewrite` when the rewritten body matches, with the trailing line end it also lost, if any. */
function rewriteHints(rewrite: HintCode, d: BodyDigests, expected: Buffer): HintCode[] {
  if (digestsEqual(d.digest, expected)) return [rewrite];
  if (d.withoutCRLF && digestsEqual(d.withoutCRLF, expected)) return [rewrite, 'trailing_crlf'];
  if (d.withoutLF && digestsEqual(d.withoutLF, expected)) return [rewrite, 'trailing_lf'];
  return [];
}

/** How the body was changed, for the causes that are a change of the body. */
const REWRITTEN: Partial<Record<HintCode, string>> = {
  crlf: 'with CRLF line ends turned to LF',
  bom: 'without its leading UTF-8 BOM',
  trailing_lf: 'without its trailing newline (LF)',
  trailing_crlf: 'without its trailing CRLF',
};

const CAUSE: Partial<Record<HintCode, string>> = {
  crlf: 'line ends were converted after signing (git autocrlf, an editor)',
  bom: 'an editor added one when saving',
  trailing_lf: 'one was added after signing (an editor, echo, a copy)',
  trailing_crlf: 'one was added after signing',
};

/** One text per cause; a rewrite found together with a trailing line end is one cause of two changes. */
function reasonText(hints: HintCode[], input: JudgeInput): string {
  const [first, second] = hints;
  if ((first === 'crlf' || first === 'bom') && (second === 'trailing_lf' || second === 'trailing_crlf')) {
    const both = `the body matches ${REWRITTEN[first]} and ${REWRITTEN[second]}: it was changed both ways after signing (an editor, unix2dos, a copy)`;
    return [both, ...hints.slice(2).map((h) => hintText(h, input))].join('; ');
  }
  return hints.map((h) => hintText(h, input)).join('; ');
}

function hintText(code: HintCode, input: JudgeInput): string {
  if (code === 'event') {
    return `the delivery is "${input.event}", not "${input.expectedEvent}" (--event): a delivery meant for another endpoint and its secret?`;
  }
  return bodyChangeText(code);
}

/** The reason for a body changed after signing (a trailing line end, CRLF, a BOM), as every scheme says it. */
export function bodyChangeText(code: HintCode): string {
  return `the body matches ${REWRITTEN[code]}: ${CAUSE[code]}`;
}
