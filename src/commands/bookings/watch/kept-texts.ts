// Where the snapshot (snapshot.ts) keeps its entries: as records in Buffers of 1 MiB, outside V8's
// heap, each found by a number (its chunk and offset). Why not strings in a Map: everything a watch
// keeps survives the young generation's collections, and V8 sizes that generation by how much
// survives. On node 22+ it then grew to 128 MB for a 96 MiB snapshot (32 MB on node 20), and the
// endless list of issue 33 peaked at 280 MB instead of 180. Kept here, an entry costs V8 only its uid
// and its slot in the Map (docs/performance.md, "bookings watch").
//
// A record: seen (u32), whole (u32), the fingerprint's and the text's UTF-8 lengths (u32 each), then
// both texts. A record replaced or removed leaves a hole; at the end of each poll the chunks that are
// more than a quarter holes are emptied into the newest one (compact), so that the chunks held stay
// within a third more than the records alive, however long the watch runs.

const CHUNK = 1024 * 1024;
const HEADER = 16;
/** A record over this size gets a chunk of its own (only a state file's entry can be: 16 KiB are kept whole). */
const OWN_CHUNK = CHUNK / 4;

/** One booking as the snapshot knows it. */
export interface Entry {
  /** sha1 of the booking's watched JSON, base64. */
  fp: string;
  /** The booking's compact JSON; or, when `whole` is false, the JSON of its summary only. */
  text: string;
  whole: boolean;
  /** The poll that last saw it (0: loaded from a state file, not seen yet). */
  seen: number;
}

interface Chunk {
  buf: Buffer;
  used: number;
  /** Bytes of its records still alive. */
  live: number;
}

export class KeptTexts {
  private readonly chunks: (Chunk | undefined)[] = [];
  private current = -1;
  /** Bytes of the records alive (headers included). */
  live = 0;

  /** Stores the record; its reference. */
  put(r: Entry): number {
    const fpBytes = Buffer.byteLength(r.fp);
    const textBytes = Buffer.byteLength(r.text);
    const size = HEADER + fpBytes + textBytes;
    const c = this.room(size);
    const chunk = this.chunks[c]!;
    const at = chunk.used;
    const buf = chunk.buf;
    buf.writeUInt32LE(r.seen, at);
    buf.writeUInt32LE(r.whole ? 1 : 0, at + 4);
    buf.writeUInt32LE(fpBytes, at + 8);
    buf.writeUInt32LE(textBytes, at + 12);
    buf.write(r.fp, at + HEADER);
    buf.write(r.text, at + HEADER + fpBytes);
    chunk.used += size;
    chunk.live += size;
    this.live += size;
    return c * CHUNK + at;
  }

  /** The record, as strings. */
  get(ref: number): Entry {
    const buf = this.bufferOf(ref);
    const at = ref % CHUNK;
    const fpEnd = at + HEADER + buf.readUInt32LE(at + 8);
    const textEnd = fpEnd + buf.readUInt32LE(at + 12);
    return {
      fp: buf.toString('utf8', at + HEADER, fpEnd),
      text: buf.toString('utf8', fpEnd, textEnd),
      whole: buf[at + 4] === 1,
      seen: buf.readUInt32LE(at),
    };
  }

  /** In this poll: 'seen' already, the 'same' fingerprint (now marked seen), or a 'changed' one. */
  sight(ref: number, fp: string, poll: number): 'seen' | 'same' | 'changed' {
    const buf = this.bufferOf(ref);
    const at = ref % CHUNK;
    if (buf.readUInt32LE(at) === poll) return 'seen';
    const length = buf.readUInt32LE(at + 8);
    // A fingerprint is base64: as many bytes as characters (one from a state file may not be, and differs).
    if (length !== fp.length || buf.toString('utf8', at + HEADER, at + HEADER + length) !== fp) return 'changed';
    buf.writeUInt32LE(poll, at);
    return 'same';
  }

  seen(ref: number): number {
    return this.bufferOf(ref).readUInt32LE(ref % CHUNK);
  }

  setSeen(ref: number, poll: number): void {
    this.bufferOf(ref).writeUInt32LE(poll, ref % CHUNK);
  }

  /** Forgets the record (its bytes are a hole until compact()). */
  free(ref: number): void {
    const c = Math.floor(ref / CHUNK);
    const chunk = this.chunks[c]!;
    const size = sizeAt(chunk.buf, ref - c * CHUNK);
    chunk.live -= size;
    this.live -= size;
    if (chunk.live === 0 && c !== this.current) this.chunks[c] = undefined;
  }

  /** Bytes of the chunks held (records and holes). */
  get held(): number {
    let n = 0;
    for (const c of this.chunks) n += c?.buf.length ?? 0;
    return n;
  }

  /**
   * Moves the records of the chunks more than a quarter holes into the newest chunk, and lets those
   * chunks go: `refs` (the snapshot's uids and references) is updated as they move.
   */
  compact(refs: Map<string, number>): void {
    const sparse = new Set<number>();
    let holes = 0;
    this.chunks.forEach((chunk, c) => {
      if (!chunk || c === this.current || chunk.live * 4 >= chunk.used * 3) return;
      sparse.add(c);
      holes += chunk.used - chunk.live;
    });
    // Moving less than a chunk's worth of holes would cost more copying than it gives back.
    if (holes < CHUNK) return;
    // The sparse chunks stay until all is moved: a chunk let go on the way could be reused for the moves.
    for (const [uid, ref] of refs) {
      const c = Math.floor(ref / CHUNK);
      if (!sparse.has(c)) continue;
      refs.set(uid, this.put(this.get(ref)));
      this.live -= sizeAt(this.chunks[c]!.buf, ref - c * CHUNK);
    }
    for (const c of sparse) this.chunks[c] = undefined;
  }

  /** The chunk to write a record of `size` bytes in: the current one, or a new one. */
  private room(size: number): number {
    if (size > OWN_CHUNK) return this.add(size, false);
    const cur = this.chunks[this.current];
    if (cur && cur.used + size <= cur.buf.length) return this.current;
    if (cur && cur.live === 0) this.chunks[this.current] = undefined;
    return this.add(CHUNK, true);
  }

  private add(size: number, current: boolean): number {
    let c = this.chunks.indexOf(undefined);
    if (c < 0) c = this.chunks.push(undefined) - 1;
    this.chunks[c] = { buf: Buffer.allocUnsafeSlow(size), used: 0, live: 0 };
    if (current) this.current = c;
    return c;
  }

  private bufferOf(ref: number): Buffer {
    return this.chunks[Math.floor(ref / CHUNK)]!.buf;
  }
}

function sizeAt(buf: Buffer, at: number): number {
  return HEADER + buf.readUInt32LE(at + 8) + buf.readUInt32LE(at + 12);
}
