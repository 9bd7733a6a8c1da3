// The one door every byte a command writes goes through, in this order:
//   1. the key mask (src/base/key-mask.ts): the key in any case, any 12-character run of it, and its
//      encoded forms; and the password of any `scheme://user:pass@` URL;
//   2. the text-safety escaper: on a terminal (or a pager, which is one), only newlines, tabs, the
//      colour codes booking draws itself and the progress line's "clear line" get through raw; any
//      other control, C1 or bidi character is shown as a visible escape. A pipe or file gets the bytes
//      as written (the formats escape what they must; raw `api` bodies and `--jq -r` strings stay exact);
//   3. write-failure handling: a write that throws or a destination that errors is reported to the
//      destination's own handler (the pager: "the user quit"; the process streams: bin/booking.js);
//   4. the destination: the process's stdout/stderr, a test's buffers, a pager's stdin.
// Nothing else builds the streams a command writes to: systemIO and testIO (src/output/io.ts) hand their raw
// destinations to openDoor, and a later destination (the pager) is reached only through `through()`,
// which puts the same stages, sharing the same masks, in front of it.
import type { Writable } from 'node:stream';
import type { Destination, IOStreams, OutStream } from './streams';
import { keyMaskers, maskUrlPasswords, maskWithAll, type Masker } from '../base/key-mask';
import { escapeForTerminal } from './escape';

/** The terminal facts and stdin that go with a set of destinations. */
export interface DoorFacts {
  stdin: () => IOStreams['stdin'];
  stdinIsTTY: () => boolean;
  color: boolean;
  columns: number;
}

function maskChunk(chunk: string | Uint8Array, maskers: readonly Masker[]): string | Uint8Array {
  // Bytes are searched as latin1 (one character per byte), so binary output passes unchanged.
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
  const masked = maskUrlPasswords(maskWithAll(text, maskers));
  if (masked === text) return chunk;
  return typeof chunk === 'string' ? masked : Buffer.from(masked, 'latin1');
}

function escapeChunk(chunk: string | Uint8Array): string | Uint8Array {
  const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('utf8');
  const safe = escapeForTerminal(text);
  return safe === text ? chunk : safe;
}

/** Stages 1-3 in front of one destination; `writeUnmasked` skips stage 1 (see IOStreams.writeKey). */
function doorStream(dest: Destination, maskers: readonly Masker[]): OutStream & { writeUnmasked(text: string): unknown } {
  const target = dest.stream;
  let failed = false;
  const fail = (err: unknown) => {
    if (failed) return;
    failed = true;
    dest.onFailure?.(err instanceof Error ? err : new Error(String(err)));
  };
  if (dest.onFailure && typeof (target as { on?: unknown }).on === 'function') (target as unknown as NodeJS.EventEmitter).on('error', fail);
  const write = (chunk: string | Uint8Array, mask: boolean) => {
    let out = mask ? maskChunk(chunk, maskers) : chunk;
    if (dest.isTTY) out = escapeChunk(out);
    // After a failure the bytes have nowhere to go: dropped, and the handler has been told.
    if (failed && dest.onFailure) return false;
    try {
      return target.write(out);
    } catch (err) {
      if (!dest.onFailure) throw err;
      fail(err);
      return false;
    }
  };
  return {
    write: (chunk: string | Uint8Array) => write(chunk, true),
    writeUnmasked: (text: string) => write(text, false),
    get writableNeedDrain() {
      return target.writableNeedDrain;
    },
    once: target.once && ((event, listener) => target.once!(event, listener)),
    off: target.off && ((event, listener) => target.off!(event, listener)),
    delivered: () => (failed ? Promise.resolve(false) : deliveredBy(target)),
  };
}

/** Node's writable (a test's buffer has nothing pending): an empty write's callback comes after the writes before it. */
function deliveredBy(target: OutStream): Promise<boolean> {
  const w = target as OutStream & Partial<Pick<Writable, 'errored' | 'writableLength' | 'write'>>;
  if (w.errored) return Promise.resolve(false);
  if (!w.writableLength) return Promise.resolve(true);
  return new Promise((resolve) => w.write!('', (err) => resolve(!err && !w.errored)));
}

/**
 * The streams a command writes to: `stdout` and `stderr` behind the door. `maskSecret` adds a key
 * to mask from then on, on these streams and on every later `through()` destination alike.
 */
export function openDoor(stdout: Destination, stderr: Destination, facts: DoorFacts): IOStreams {
  const maskers: Masker[] = [];
  const known = new Map<string, Masker[]>();
  const maskSecret = (key: string) => {
    if (known.has(key)) return;
    const added = keyMaskers(key);
    known.set(key, added);
    maskers.push(...added);
  };
  const unmaskSecret = (key: string) => {
    for (const m of known.get(key) ?? []) maskers.splice(maskers.indexOf(m), 1);
    known.delete(key);
  };
  const build = (out: Destination, err: Destination, over: { stderrIsTTY: boolean; color: boolean }): IOStreams => {
    const stdout = doorStream(out, maskers);
    return {
      get stdin() {
        return facts.stdin();
      },
      get stdinIsTTY() {
        return facts.stdinIsTTY();
      },
      stdout,
      stderr: doorStream(err, maskers),
      writeKey: (key) => void stdout.writeUnmasked(`${key}\n`),
      stdoutIsTTY: out.isTTY,
      // A fact for the command (a pager that has the terminal turns the progress line off); the
      // escaper keeps following what stderr really is. Read when asked: finding it out may make
      // process.stderr (src/output/io.ts), which a quiet run never needs.
      get stderrIsTTY() {
        return over.stderrIsTTY;
      },
      color: over.color,
      columns: facts.columns,
      maskSecret,
      unmaskSecret,
      mask: (text) => maskUrlPasswords(maskWithAll(text, maskers)),
      through: (next, opts) => build(next, err, opts),
    };
  };
  return build(stdout, stderr, {
    get stderrIsTTY() {
      return stderr.isTTY;
    },
    color: facts.color,
  });
}
