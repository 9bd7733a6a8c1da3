// The API key must never be printed, however a server hands it back: quoted in an error, in a
// record, inside a cursor that a resume hint repeats. A server may change its case or cut it, so the
// key is matched without regard to case, and any run of MASK_RUN or more of its consecutive characters
// counts as the key. The mask sits on stdout and stderr themselves (maskingIO), so no output path
// (records, tables, errors, hints, --debug) can forget it; a key is added once it is about to be sent.
import type { IOStreams, OutStream } from './io';

/** How long a piece of the key must be to be masked: long enough that ordinary text never matches. */
const MASK_RUN = 12;
const MASK = '****';

interface Masker {
  pattern: RegExp;
  /**
   * A quick test first: every run of MASK_RUN characters of the key holds a whole aligned block of 4
   * (key[4m..4m+4)), and an alternation of a few short blocks is ~4x cheaper to scan for than of every
   * run (a long key has dozens); most output holds none, so the full pattern rarely runs.
   */
  anchors: RegExp;
  lower: string;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function maskerFor(key: string): Masker | undefined {
  // A key this short would mask ordinary words; such keys are refused by no one, but are not secret.
  if (key.length < 4) return undefined;
  const lower = key.toLowerCase();
  const pieces = new Set<string>();
  if (lower.length <= MASK_RUN) pieces.add(lower);
  else for (let i = 0; i + MASK_RUN <= lower.length; i++) pieces.add(lower.slice(i, i + MASK_RUN));
  const pattern = new RegExp([...pieces].map(escapeRegExp).join('|'), 'gi');
  const blocks = new Set<string>();
  if (lower.length <= MASK_RUN) blocks.add(lower);
  else for (let i = 0; i + 4 <= lower.length; i += 4) blocks.add(lower.slice(i, i + 4));
  const anchors = new RegExp([...blocks].map(escapeRegExp).join('|'), 'i');
  return { pattern, anchors, lower };
}

/** Where the run of the key that starts at `at` (already known to match) ends in `text`. */
function runEnd(text: string, at: number, found: string, lower: string): number {
  let end = at + found.length;
  // The piece may occur more than once in the key: the longest continuation wins.
  for (let k = lower.indexOf(found.toLowerCase()); k !== -1; k = lower.indexOf(found.toLowerCase(), k + 1)) {
    let j = found.length;
    while (k + j < lower.length && at + j < text.length && text[at + j]!.toLowerCase() === lower[k + j]) j++;
    end = Math.max(end, at + j);
  }
  return end;
}

function maskWith(text: string, m: Masker): string {
  if (!m.anchors.test(text)) return text;
  m.pattern.lastIndex = 0;
  let out = '';
  let last = 0;
  for (let hit = m.pattern.exec(text); hit; hit = m.pattern.exec(text)) {
    const end = runEnd(text, hit.index, hit[0], m.lower);
    out += text.slice(last, hit.index) + MASK;
    last = end;
    m.pattern.lastIndex = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** `text` with every form of `key` in it (any case, any run of MASK_RUN+ characters) masked. */
export function maskKeyIn(text: string, key: string | undefined): string {
  const m = key ? maskerFor(key) : undefined;
  return m ? maskWith(text, m) : text;
}

/**
 * The same streams, masking every key given to `maskSecret` from then on in whatever is written.
 * Bytes are searched as latin1 (one character per byte), so binary output passes through unchanged.
 */
export function maskingIO(io: IOStreams): IOStreams {
  const maskers: Masker[] = [];
  const known = new Set<string>();
  const mask = (chunk: string | Uint8Array): string | Uint8Array => {
    if (maskers.length === 0) return chunk;
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString('latin1');
    let masked = text;
    for (const m of maskers) masked = maskWith(masked, m);
    if (masked === text) return chunk;
    return typeof chunk === 'string' ? masked : Buffer.from(masked, 'latin1');
  };
  const wrap = (out: OutStream): OutStream =>
    new Proxy(out, {
      get(target, prop) {
        if (prop === 'write')
          return (chunk: string | Uint8Array, ...rest: unknown[]) => (target.write as (...a: unknown[]) => unknown)(mask(chunk), ...rest);
        const value = Reflect.get(target, prop, target) as unknown;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  return Object.defineProperties({} as IOStreams, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: { value: wrap(io.stdout), enumerable: true },
    stderr: { value: wrap(io.stderr), enumerable: true },
    maskSecret: {
      enumerable: true,
      value: (key: string) => {
        if (known.has(key)) return;
        known.add(key);
        const m = maskerFor(key);
        if (m) maskers.push(m);
      },
    },
  });
}
