// Seeded random JSON documents, written as text, with numbers at every edge JSON.parse has (2^53 ± 1,
// 20-digit ids, long fractions, trailing zeros, exponents either case, -0, 1e400) and strings that
// look like the marks src/output/json.ts uses (a leading U+0000, then digits), keys too, unicode escapes
// and raw UTF-8. The text is what a server sends; lossless-json reads it as the reference.

/** mulberry32: a small seeded generator, so that a failure names a seed that repeats it. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const EDGE_NUMBERS = [
  '9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '12345678901234567890',
  '4611686018427387904',
  '18446744073709551615',
  '123456789012345678901234567890',
  '100000000000000000000',
  '1000000000000000000000',
  '0',
  '-0',
  '0.0',
  '-0.0',
  '1.50',
  '2.5',
  '0.1',
  '0.10000000000000000001',
  '3.141592653589793238462643383279',
  '1e3',
  '1E3',
  '1e+3',
  '1e-7',
  '1.5e-7',
  '-2.5E-10',
  '1e400',
  '-1e400',
  '1e-400',
  '5e-324',
  '1.7976931348623157e308',
  '123456789012345.6',
  '42',
  '-17',
];

const MARKISH = [
  '\\u0000',
  '\\u0000123',
  '\\u000012345678901234567890',
  '\\u0000\\u0000123',
  '\\u0000-0',
  '\\u0000abc',
  'x\\u0000123',
  '\\"\\u0000123',
  '\\\\u0000123',
  '\\\\',
  '\\u00001.50',
];
const PLAIN = [
  '',
  'a',
  'Zoë',
  '日本語',
  '😀',
  '\\u00e9',
  '\\ud83d\\ude00',
  '\\ud800',
  'tab\\there',
  'q\\"uote',
  '123',
  '12345678901234567890',
  '-0',
  ' 1.50 ',
];

export interface GenOptions {
  /** Strings with a lone surrogate (\ud800): valid JSON that jq refuses and UTF-8 output replaces. */
  loneSurrogates?: boolean;
}

export function jsonGen(random: () => number, opts: GenOptions = {}) {
  const plain = opts.loneSurrogates === false ? PLAIN.filter((s) => s !== '\\ud800') : PLAIN;
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const int = (n: number) => Math.floor(random() * n);
  const digits = (n: number) => Array.from({ length: n }, () => String(int(10))).join('');

  function number(): string {
    switch (int(4)) {
      case 0:
      case 1:
        return pick(EDGE_NUMBERS);
      case 2: {
        // An integer of 1 to 25 digits, sometimes negative.
        const n = 1 + int(25);
        const body = n === 1 ? digits(1) : `${1 + int(9)}${digits(n - 1)}`;
        return `${random() < 0.3 ? '-' : ''}${body}`;
      }
      default: {
        // A fraction, often with trailing zeros, sometimes with an exponent.
        const whole = random() < 0.3 ? '0' : `${1 + int(9)}${digits(int(6))}`;
        const frac = `${digits(1 + int(20))}${random() < 0.4 ? '0' : ''}`;
        const exp = random() < 0.3 ? `${pick(['e', 'E'])}${pick(['', '+', '-'])}${1 + int(400)}` : '';
        return `${random() < 0.3 ? '-' : ''}${whole}.${frac}${exp}`;
      }
    }
  }

  function string(): string {
    const r = random();
    if (r < 0.3) return `"${pick(MARKISH)}"`;
    if (r < 0.5) return `"${pick(plain)}${pick(plain)}"`;
    return `"${pick(plain)}${number()}"`;
  }

  const space = () => pick(['', '', '', ' ', '\n  ', '\t']);

  function value(depth: number): string {
    const r = random();
    if (depth <= 0 || r < 0.45) {
      const s = random();
      if (s < 0.55) return number();
      if (s < 0.9) return string();
      return pick(['true', 'false', 'null']);
    }
    if (r < 0.7) {
      const n = int(5);
      return `[${space()}${Array.from({ length: n }, () => value(depth - 1)).join(`,${space()}`)}${space()}]`;
    }
    return object(depth);
  }

  function object(depth: number): string {
    const n = int(6);
    const keys = new Set<string>();
    while (keys.size < n) keys.add(random() < 0.25 ? string() : `"k${int(50)}"`);
    return `{${space()}${[...keys].map((k) => `${k}${space()}:${space()}${value(depth - 1)}`).join(`,${space()}`)}${space()}}`;
  }

  return { number, string, value, object };
}
