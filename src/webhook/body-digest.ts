// One streaming pass over a delivery body that yields its HMAC-SHA256 and the HMACs of the body
// without a trailing LF or CRLF (the commonest way a saved body stops matching), with no second read.
//
// node's Hmac cannot be copied mid-stream, but Hash can: for large bodies HMAC is built here from two
// SHA-256 hashes (RFC 2104), and the last two bytes are held back so the inner hash can be forked at
// the end with or without them. The authentic path costs the same single SHA-256 pass as createHmac.
import { createHash, type Hash } from 'node:crypto';

const BLOCK = 64;
const CR = 0x0d;
const LF = 0x0a;
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EMPTY = Buffer.alloc(0);

/** The secret as the two padded keys of RFC 2104 (keys longer than a block are hashed first). */
function hmacKeys(secret: Buffer): { inner: Buffer; outer: Buffer } {
  const key = secret.length > BLOCK ? createHash('sha256').update(secret).digest() : secret;
  const inner = Buffer.alloc(BLOCK, 0x36);
  const outer = Buffer.alloc(BLOCK, 0x5c);
  for (let i = 0; i < key.length; i++) {
    inner[i]! ^= key[i]!;
    outer[i]! ^= key[i]!;
  }
  return { inner, outer };
}

export interface BodyDigests {
  digest: Buffer;
  bytes: number;
  /** HMAC of the body less its final LF, when it ends with one. */
  withoutLF?: Buffer;
  /** HMAC of the body less its final CRLF, when it ends with one. */
  withoutCRLF?: Buffer;
  /** Whether a CR occurs anywhere (only then can CRLF → LF explain a mismatch). */
  hasCR: boolean;
  startsWithBOM: boolean;
}

// Bodies up to this size are kept and hashed in one call at the end: a capture's body is usually a
// few hundred bytes, and for thousands of them the per-call cost of node's crypto objects is what
// counts. Larger ones switch to the streaming hash.
const SMALL = 64 * 1024;

// Each secret's two keyed SHA-256 states, made once and copied for each small body: a new Hmac per
// body prepares the key and looks up the algorithm again, which costs more than hashing a capture.
// Per secret (several are checked during a rotation); weak, so a secret dropped takes its states along.
const keyed = new WeakMap<Buffer, { inner: Hash; outer: Hash }>();

function hmac(secret: Buffer, body: Uint8Array): Buffer {
  let states = keyed.get(secret);
  if (!states) {
    const keys = hmacKeys(secret);
    states = { inner: createHash('sha256').update(keys.inner), outer: createHash('sha256').update(keys.outer) };
    keyed.set(secret, states);
  }
  return states.outer.copy().update(states.inner.copy().update(body).digest()).digest();
}

export class BodyDigest {
  private inner: Hash | undefined;
  private small: Buffer[] | undefined = [];
  /** The last (up to) two bytes seen, not yet in `inner` (streaming mode only). */
  private tail: Buffer = EMPTY;
  /** How many of the first bytes match a UTF-8 BOM so far; -1 once one does not. */
  private bom = 0;
  bytes = 0;
  hasCR = false;

  constructor(private readonly secret: Buffer) {}

  /** The chunk is consumed (or copied) before returning, so callers may reuse its memory. */
  update(chunk: Uint8Array): void {
    const n = chunk.length;
    if (n === 0) return;
    this.bytes += n;
    if (!this.hasCR && chunk.indexOf(CR) !== -1) this.hasCR = true;
    for (let i = 0; this.bom >= 0 && this.bom < BOM.length && i < n; i++) this.bom = chunk[i] === BOM[this.bom] ? this.bom + 1 : -1;
    if (this.small) {
      if (this.bytes <= SMALL) return void this.small.push(Buffer.from(chunk));
      // The switch to streaming: the chunk that passes SMALL is not copied (listen passes a whole
      // body of up to 64 MiB in one).
      const kept = Buffer.concat(this.small);
      this.small = undefined;
      this.inner = createHash('sha256').update(hmacKeys(this.secret).inner);
      if (kept.length) this.stream(kept);
    }
    this.stream(chunk);
  }

  finish(): BodyDigests {
    const base = { bytes: this.bytes, hasCR: this.hasCR, startsWithBOM: this.bom === BOM.length };
    if (this.small) {
      // One chunk, the usual capture: its copy is the body (a concat would copy it again).
      const body = this.small.length === 1 ? this.small[0]! : Buffer.concat(this.small);
      const result: BodyDigests = { digest: hmac(this.secret, body), ...base };
      const n = body.length;
      if (n > 0 && body[n - 1] === LF) {
        result.withoutLF = hmac(this.secret, body.subarray(0, n - 1));
        if (n > 1 && body[n - 2] === CR) result.withoutCRLF = hmac(this.secret, body.subarray(0, n - 2));
      }
      return result;
    }
    const t = this.tail;
    const result = { ...base } as BodyDigests;
    if (t.length > 0 && t[t.length - 1] === LF) {
      result.withoutLF = this.fork(t.subarray(0, t.length - 1), true);
      if (t.length === 2 && t[0] === CR) result.withoutCRLF = this.fork(EMPTY, true);
    }
    result.digest = this.fork(t, false);
    return result;
  }

  private stream(chunk: Uint8Array): void {
    const n = chunk.length;
    const inner = this.inner!;
    if (n >= 2) {
      if (this.tail.length) inner.update(this.tail);
      inner.update(chunk.subarray(0, n - 2));
      this.tail = Buffer.from(chunk.subarray(n - 2));
      return;
    }
    const joined = Buffer.concat([this.tail, chunk]);
    if (joined.length > 2) inner.update(joined.subarray(0, joined.length - 2));
    this.tail = joined.subarray(Math.max(0, joined.length - 2));
  }

  /** The HMAC with `last` appended; `copy` keeps the running hash usable for another fork. */
  private fork(last: Buffer, copy: boolean): Buffer {
    const inner = (copy ? this.inner!.copy() : this.inner!).update(last).digest();
    return createHash('sha256').update(hmacKeys(this.secret).outer).update(inner).digest();
  }
}

/**
 * HMACs of two rewritten versions of a body, for a second pass made only after a mismatch: with every
 * CRLF turned to LF, and without a leading UTF-8 BOM. Each is a BodyDigest of the rewritten bytes, so
 * it also tells whether the rewrite matches without a trailing newline (unix2dos, or an editor that
 * adds a BOM, usually adds a final line end too).
 */
export class VariantDigest {
  private readonly crlf: BodyDigest;
  private readonly noBom: BodyDigest;
  private pendingCR = false;
  private skipped = 0;

  constructor(secret: Buffer) {
    this.crlf = new BodyDigest(secret);
    this.noBom = new BodyDigest(secret);
  }

  update(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    const skip = Math.min(BOM.length - this.skipped, chunk.length);
    this.skipped += skip;
    this.noBom.update(chunk.subarray(skip));
    this.updateCrlf(chunk);
  }

  finish(): { crlfToLf: BodyDigests; withoutBOM: BodyDigests } {
    if (this.pendingCR) this.crlf.update(Buffer.of(CR));
    return { crlfToLf: this.crlf.finish(), withoutBOM: this.noBom.finish() };
  }

  private updateCrlf(chunk: Uint8Array): void {
    let start = 0;
    if (this.pendingCR) {
      // A CR ended the previous chunk: it goes unless this one starts with the LF that pairs it.
      if (chunk[0] !== LF) this.crlf.update(Buffer.of(CR));
      this.pendingCR = false;
    }
    for (let i = chunk.indexOf(CR, start); i !== -1; i = chunk.indexOf(CR, start)) {
      if (i === chunk.length - 1) {
        this.crlf.update(chunk.subarray(start, i));
        this.pendingCR = true;
        return;
      }
      const pair = chunk[i + 1] === LF;
      this.crlf.update(chunk.subarray(start, pair ? i : i + 1));
      start = i + 1;
    }
    this.crlf.update(chunk.subarray(start));
  }
}
