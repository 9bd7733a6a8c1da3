// One quick pass over a JSON body before it is parsed, for two things JSON.parse cannot be asked:
// - how deep it nests: printing (and walking) a value recurses, so a document nested deeper than
//   MAX_DEPTH is refused here, as an error naming the request, rather than a stack overflow later;
// - whether JSON.parse would lose anything: a number it cannot give back digit for digit (more than
//   15 significant digits, 1.50, 1e3, -0). Only then is the slower lossless parser needed.
// One loop over the bytes: a fraction of what the parse itself costs.

export const MAX_DEPTH = 1000;

export interface JsonScan {
  /** Deeper than MAX_DEPTH: not parsed. */
  tooDeep: boolean;
  /** Some number would not survive JSON.parse exactly. */
  needsLossless: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function isNumberByte(b: number): boolean {
  // 0-9 - + . e E
  return (b >= 0x30 && b <= 0x39) || b === 0x2d || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45;
}

/** True when the literal is one JSON.parse keeps exactly: it prints back the same. */
function exact(literal: string): boolean {
  return String(Number(literal)) === literal;
}

export function scanJson(body: Buffer, start = 0): JsonScan {
  let depth = 0;
  let needsLossless = false;
  const end = body.length;
  for (let i = start; i < end; i++) {
    const b = body[i]!;
    if (b === QUOTE) {
      // To the closing quote, stepping over escapes. A loop, not indexOf: most strings are short, and
      // a native call per string costs more than reading their bytes here.
      for (i++; i < end; i++) {
        const c = body[i]!;
        if (c === QUOTE) break;
        if (c === BACKSLASH) i++;
      }
    } else if (b === 0x7b || b === 0x5b) {
      if (++depth > MAX_DEPTH) return { tooDeep: true, needsLossless };
    } else if (b === 0x7d || b === 0x5d) {
      depth--;
    } else if (!needsLossless && ((b >= 0x30 && b <= 0x39) || b === 0x2d)) {
      const from = i;
      let simple = b !== 0x2d || body[i + 1] !== 0x30; // -0… is never simple
      while (i + 1 < end && isNumberByte(body[i + 1]!)) {
        const c = body[++i]!;
        if (c === 0x2e || c === 0x65 || c === 0x45) simple = false;
      }
      // Up to 15 digits, no fraction or exponent: always exact.
      if (!simple || i - from + 1 > 15) needsLossless = !exact(body.toString('latin1', from, i + 1));
    }
  }
  return { tooDeep: false, needsLossless };
}
