// One delivery's body as it arrives: each chunk goes at once into the signature digests, the repeat
// fingerprint and the capture's file (save.ts Spool), so that a large body is not held whole (issue
// 33: four 60 MiB deliveries held whole were 240 MiB of a 476 MB peak). A body is kept in memory only
// where something needs it whole: a small one (its booking uid and event id are read from it), a
// chunked one (its capture is framed with its length, known at the end), one judged in a scheme that
// reads the body whole, and one to forward that has no capture to be read back from.
import { createHash } from 'node:crypto';
import type { BodyDigests } from '../../../webhook/body-digest';
import type { Sink } from '../../../webhook/input';
import { SecretsDigest } from '../../../webhook/verdict';
import type { Secret } from '../../../webhook/signature';
import type { IncomingMessage } from 'node:http';
import { declaredLength, type BodySink } from './body';
import type { CaptureSaver, Spool } from './save';

/** Bodies up to this size are kept in memory: the uid and event id are looked for in them only. */
const SMALL_BODY = 1024 * 1024;

/** A body received whole. */
export interface Received {
  size: number;
  /** The bytes, when kept. */
  body?: Buffer;
  /** The signature digests made as it arrived (with the secrets of a streaming judge). */
  digests?: BodyDigests[];
  /** Reads the body again (from memory or the capture's file); undefined when it cannot. */
  again?: (sink: Sink) => Promise<void>;
  /** SHA-256 of the body, base64: what a repeat is known by. */
  fingerprint: string;
  /** Its capture, written as it arrived; `saveFailed` when the disk refused it. */
  spool?: Spool;
  saveFailed?: Error;
}

/** Where this delivery's body goes as it arrives, and whether it is kept whole (see the top). */
export async function openIntake(
  req: IncomingMessage,
  how: { saver?: CaptureSaver; secrets?: Secret[]; forwards: boolean; maxBody: number },
): Promise<Intake> {
  const declared = declaredLength(req);
  // Refused (413) before a byte is read: nothing to keep or write.
  if (declared > how.maxBody) return new Intake({ keep: false, declared });
  let spool: Spool | undefined;
  let saveFailed: Error | undefined;
  // A chunked body is saved once whole (server.ts): its capture is framed with its length.
  if (how.saver && declared >= 0) {
    try {
      spool = (await how.saver.begin(req, declared)) ?? undefined;
    } catch (err) {
      saveFailed = err as Error;
    }
  }
  const keep = !(declared >= 0) || declared <= SMALL_BODY || !how.secrets || (how.forwards && !spool);
  return new Intake({ secrets: how.secrets, keep, declared, spool, saveFailed });
}

export class Intake implements BodySink {
  private readonly digest: SecretsDigest | undefined;
  private readonly print = createHash('sha256');
  /** A kept body of a declared length goes into one buffer as it comes: no join at the end. */
  private whole: Buffer | undefined;
  private chunks: Buffer[] | undefined;
  private size = 0;

  constructor(opts: {
    /** The secrets to digest it with as it arrives; undefined when the judge reads the body whole. */
    secrets?: Secret[];
    keep: boolean;
    /** Content-Length, or NaN. */
    declared: number;
    spool?: Spool;
    /** The capture could not be begun (its folder could not be made). */
    saveFailed?: Error;
  }) {
    this.saveFailed = opts.saveFailed;
    this.digest = opts.secrets && new SecretsDigest(opts.secrets);
    this.spool = opts.spool;
    if (!opts.keep) return;
    // Its pages take memory only once written: it holds what was received, not what was declared.
    if (Number.isSafeInteger(opts.declared) && opts.declared > 0) this.whole = Buffer.allocUnsafeSlow(opts.declared);
    else this.chunks = [];
  }

  readonly spool: Spool | undefined;
  private readonly saveFailed: Error | undefined;

  write(chunk: Buffer): boolean {
    this.digest?.update(chunk);
    this.print.update(chunk);
    if (this.whole && this.size + chunk.length <= this.whole.length) chunk.copy(this.whole, this.size);
    else if (this.whole || this.chunks) {
      // More than declared (node's parser refuses it; kept for any other stream): collected.
      this.chunks ??= [this.whole!.subarray(0, this.size)];
      this.whole = undefined;
      this.chunks.push(chunk);
    }
    this.size += chunk.length;
    return this.spool ? this.spool.write(chunk) : true;
  }

  drained(then: () => void): void {
    if (this.spool) this.spool.drained(then);
    else then();
  }

  /** After the last byte: the body as received, its capture's file complete on disk. */
  async finish(): Promise<Received> {
    const { spool } = this;
    const saveFailed =
      this.saveFailed ??
      (spool
        ? await spool.close().then(
            () => undefined,
            (err: Error) => err,
          )
        : undefined);
    let body = this.whole?.subarray(0, this.size);
    if (this.chunks) {
      // The join is a second copy only for a moment: the chunks are let go of at once.
      body = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.size);
      this.chunks = undefined;
    }
    const again =
      body !== undefined
        ? async (sink: Sink) => sink(body)
        : spool && !saveFailed
          ? async (sink: Sink) => {
              for await (const chunk of spool.body()) sink(chunk as Buffer);
            }
          : undefined;
    return {
      size: this.size,
      body,
      digests: this.digest?.finish(),
      again,
      fingerprint: this.print.digest('base64'),
      spool,
      saveFailed,
    };
  }

  /**
   * Once the delivery is done (or refused): a capture not saved is removed, and the kept body is let
   * go. Never detached (ArrayBuffer.prototype.transfer): a forward's socket may still be writing it
   * (a receiver that answers before it has read the body), and on node 24 and 26 a detached buffer
   * cut that body short while listen reported it forwarded.
   */
  async release(): Promise<void> {
    this.whole = undefined;
    this.chunks = undefined;
    await this.spool?.discard();
  }
}
