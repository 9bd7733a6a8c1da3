// Saving what `listen` receives as raw request captures that `verify --request` reads back: request
// line, headers as received, a blank line, the exact body bytes. One file per delivery, named so that
// `ls` sorts them by arrival. Each is written under a temporary name and linked to its own only when
// whole, so a full disk leaves no empty or cut capture, and no earlier capture is ever overwritten.
// A body of a declared length is written as it arrives (a Spool): listen then holds none of it whole.
// The folder is held to a size cap (--max-saved): beyond it deliveries are no longer saved.
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { link, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { join } from 'node:path';
import { makeDirs } from '../../../base/make-dirs';
import { headerValues } from '../../../webhook/capture';
import { DISK_STALL_MS } from './body';
import { ByteBudget } from './budget';

export interface RequestHead {
  method?: string;
  url?: string;
  httpVersion: string;
  rawHeaders: string[];
}

/** The request line and headers as received, and the blank line. */
function captureHead(req: RequestHead): Buffer {
  const lines = [`${req.method ?? 'POST'} ${req.url ?? '/'} HTTP/${req.httpVersion}`];
  for (let i = 0; i + 1 < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
  // node hands header values over as latin1, one char per byte: latin1 gives the bytes back.
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** The capture's parts, head then body, written one after the other (a large body is not copied). */
function captureParts(req: RequestHead, body: Buffer): Buffer[] {
  const head = captureHead(req);
  // A chunked request keeps its header; its body is written as one chunk.
  const chunked = headerValues(req.rawHeaders, 'transfer-encoding').some((v) => /\bchunked\b/i.test(v));
  if (!chunked) return [head, body];
  const framed = body.length ? [Buffer.from(`${body.length.toString(16)}\r\n`), body, Buffer.from('\r\n')] : [];
  return [head, ...framed, Buffer.from('0\r\n\r\n')];
}

// Where a filesystem cannot hard-link, the whole capture is renamed into place instead.
const NO_LINK = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV']);
// What a spool's file stream queues before the sender is paused: the disk sets the pace, not memory.
const SPOOL_QUEUE = 1024 * 1024;

export class CaptureSaver {
  private seq = 0;
  private temps = 0;
  private ready: Promise<void> | undefined;
  /** Bytes of *.http in the folder, counted at the first save, plus what this run has saved or is saving. */
  room: ByteBudget;

  constructor(
    readonly dir: string,
    /** --max-saved (its default is the command's). */
    readonly maxBytes = Infinity,
  ) {
    this.room = new ByteBudget(maxBytes);
  }

  /** Writes one capture and returns its path; null when it would take the folder over maxBytes. */
  async save(req: RequestHead, body: Buffer, event: string | null, time: Date): Promise<string | null> {
    this.ready ??= this.prepare();
    await this.ready;
    const parts = captureParts(req, body);
    const size = parts.reduce((n, p) => n + p.length, 0);
    if (!this.room.take(size)) return null;
    const temp = this.tempName();
    try {
      await writeFile(temp, parts, { flag: 'wx', mode: 0o600 });
      return await this.publish(temp, event, time);
    } catch (err) {
      this.room.give(size);
      // Not a file of ours when 'wx' found one there (EEXIST): clean-up removes only what it made.
      if ((err as { code?: string }).code !== 'EEXIST') await rm(temp, { force: true }).catch(() => {});
      throw err;
    }
  }

  /**
   * A capture to write as its body of `length` bytes arrives (its head is written at once); null when
   * it cannot fit under maxBytes. Its room is taken when it is published, as save() takes it: a
   * delivery being received holds none, so that many arriving at once (most of them to be refused,
   * 503) do not keep one another out. The folder holds at most the in-flight budget more meanwhile.
   */
  async begin(req: RequestHead, length: number): Promise<Spool | null> {
    this.ready ??= this.prepare();
    await this.ready;
    const head = captureHead(req);
    const size = head.length + length;
    if (!this.room.fits(size)) return null;
    return new Spool(this, this.tempName(), head, size);
  }

  // Not *.http, so that `verify --request DIR` never reads one half-written.
  private tempName(): string {
    return join(this.dir, `.${process.pid}-${Date.now()}-${++this.temps}.part`);
  }

  /** Created on first save only, private: deliveries carry attendees' personal data. */
  private async prepare(): Promise<void> {
    makeDirs(this.dir, 0o700);
    let used = 0;
    for (const entry of await readdir(this.dir)) {
      if (entry.endsWith('.http'))
        used += await stat(join(this.dir, entry)).then(
          (s) => s.size,
          () => 0,
        );
    }
    this.room = new ByteBudget(this.maxBytes, used);
  }

  /** The whole capture `temp` under its own name, stamped with its arrival; its path. */
  async publish(temp: string, event: string | null, time: Date): Promise<string> {
    const stamp = time.toISOString().replace(/[-:]/g, '');
    const label = (event ?? 'no-event').replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 64);
    for (;;) {
      const path = join(this.dir, `${stamp}-${String(++this.seq).padStart(4, '0')}-${label}.http`);
      try {
        await link(temp, path);
      } catch (err) {
        const code = (err as { code?: string }).code ?? '';
        if (code === 'EEXIST') continue;
        if (!NO_LINK.has(code)) throw err;
        await rename(temp, path);
        return path;
      }
      // The capture is in place: a leftover temporary name is no reason to call the save failed.
      await unlink(temp).catch(() => {});
      return path;
    }
  }
}

/**
 * One capture written while its body arrives. A write that fails (a full disk) is kept and reported
 * by close(); what arrives after it is not written, so the sender is still read to the end and answered.
 */
export class Spool {
  private readonly out: WriteStream;
  private failed: Error | undefined;
  private saved: string | undefined;
  private gone = false;

  constructor(
    private readonly saver: CaptureSaver,
    private readonly temp: string,
    private readonly head: Buffer,
    private readonly size: number,
  ) {
    this.out = createWriteStream(temp, { flags: 'wx', mode: 0o600, highWaterMark: SPOOL_QUEUE });
    this.out.on('error', (err) => (this.failed ??= err));
    this.out.write(head);
  }

  /** false: wait for drained() before the next chunk. */
  write(chunk: Buffer): boolean {
    return this.failed !== undefined || this.out.write(chunk);
  }

  drained(then: () => void): void {
    if (this.failed) {
      then();
      return;
    }
    const go = () => {
      this.out.off('drain', go).off('error', go);
      then();
    };
    this.out.on('drain', go).on('error', go);
  }

  /** Every byte on disk; rejects with the write's failure, or DiskStalled when the disk stopped taking them. */
  async close(): Promise<void> {
    if (!this.failed) this.out.end();
    await finishedMoving(this.out, DISK_STALL_MS).catch((err: Error) => (this.failed ??= err));
    if (this.failed) throw this.failed;
  }

  /** The capture under its own name (after close()); null when the folder is full (--max-saved). */
  async publish(event: string | null, time: Date): Promise<string | null> {
    if (!this.saver.room.take(this.size)) return null;
    try {
      this.saved = await this.saver.publish(this.temp, event, time);
    } catch (err) {
      this.saver.room.give(this.size);
      throw err;
    }
    return this.saved;
  }

  /** The body again, from the file (for the verdict's second pass, or to forward it). */
  body(): ReadStream {
    return createReadStream(this.saved ?? this.temp, { start: this.head.length });
  }

  /** Drops a capture not published (a refused, failed or ignored delivery, or one over --max-saved). */
  async discard(): Promise<void> {
    if (this.saved !== undefined || this.gone) return;
    this.gone = true;
    // Closed first: a file still being opened would otherwise appear after its removal.
    if (!this.out.closed) await new Promise<void>((resolve) => this.out.once('close', () => resolve()).destroy());
    // A temporary name 'wx' found taken (EEXIST) is not a file of ours: clean-up removes only what it made.
    if ((this.failed as { code?: string } | undefined)?.code !== 'EEXIST') await rm(this.temp, { force: true }).catch(() => {});
  }
}

/** A capture whose disk took none of its queued bytes for the stall bound (body.ts DISK_STALL_MS). */
export class DiskStalled extends Error {
  constructor(ms: number) {
    super(`the disk took no more bytes of the capture for ${ms / 1000} s`);
  }
}

/**
 * `out` finished, or DiskStalled once it has written nothing between two checks `stallMs` apart
 * (so 1-2 x `stallMs` after its last write). A sender whose whole body has arrived waits for its
 * capture's last queued bytes before it is answered: on a stuck disk it would wait for ever (a slow
 * one that still moves is waited for).
 */
export function finishedMoving(out: Writable, stallMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let queued = Number.NaN;
    let timer: NodeJS.Timeout | undefined;
    const check = () => {
      // writableLength falls as each write completes; the same figure twice is no progress.
      if (out.writableLength === queued) return reject(new DiskStalled(stallMs));
      queued = out.writableLength;
      timer = setTimeout(check, stallMs);
    };
    check();
    finished(out)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer));
  });
}
