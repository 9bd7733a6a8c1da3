// Whether a listing's elements can be written as the server sent them without being parsed at all:
// each is valid JSON whose bytes are exactly what booking would write for it (src/json-raw.ts says
// when that is), checked here byte by byte instead of by JSON.parse and a walk of what it built.
//
// An element passes when it is one JSON value, compact (no whitespace outside strings), whose strings
// hold only ASCII from space up, with no backslash (so no escape, no control character, nothing
// JSON.stringify would write otherwise; a DEL is written as it is, and escaped by the ndjson writer as
// any other line's), whose objects have no duplicate key (JSON.parse keeps one) and no key that starts
// with a digit (JSON.parse moves array-index keys first). Numbers need no more than their grammar:
// booking writes every number as it was sent (src/json.ts).
//
// Anything else, including what is no JSON at all, fails here and is written the usual way, from the
// parse (which then reports invalid JSON as always).

/** Objects with more keys than this are not checked (the duplicate check is quadratic): they fail. */
const MAX_KEYS = 256;

const EMPTY = Buffer.alloc(0);
let body: Buffer = EMPTY;
let pos = 0;
/** Per key of the objects being checked: its hash, start and end; each object's keys follow its parent's. */
const keys: number[] = [];

/**
 * Whether each of the first `count` elements ([start, end, verdict] triples, as json-scan records
 * them in `bytes`; all of them by default) is written as sent.
 */
export function verbatimElements(bytes: Buffer, elements: number[], count = elements.length / 3): boolean {
  body = bytes;
  try {
    for (let i = 0; i < count; i++) if (!check(elements, i)) return false;
    return true;
  } finally {
    body = EMPTY;
  }
}

/** Whether element `i` of `elements` (as in verbatimElements) is written as sent. */
export function verbatimElement(bytes: Buffer, elements: number[], i: number): boolean {
  body = bytes;
  try {
    return check(elements, i);
  } finally {
    body = EMPTY;
  }
}

/**
 * Element `i` of `body`. The answer is kept in the element's third number (the scan leaves 0, or -1 for
 * whitespace or a backslash): the lazy parse, the page's lines and each item's text ask about the same
 * elements.
 */
function check(elements: number[], i: number): boolean {
  const known = elements[3 * i + 2]!;
  if (known !== 0) return known > 0;
  keys.length = 0;
  pos = elements[3 * i]!;
  const verbatim = value() && pos === elements[3 * i + 1];
  elements[3 * i + 2] = verbatim ? 1 : -1;
  return verbatim;
}

function value(): boolean {
  const b = body[pos];
  if (b === 0x22) return string();
  if (b === 0x7b) return object();
  if (b === 0x5b) return array();
  if (b === 0x74) return literal(TRUE);
  if (b === 0x66) return literal(FALSE);
  if (b === 0x6e) return literal(NULL);
  if (b === 0x2d || (b !== undefined && b >= 0x30 && b <= 0x39)) return number();
  return false;
}

/** From the opening quote past the closing one: ASCII from space up, no backslash. */
function string(): boolean {
  let i = pos + 1;
  for (;;) {
    const c = body[i];
    if (c === 0x22) break;
    if (c === undefined || c < 0x20 || c > 0x7f || c === 0x5c) return false;
    i++;
  }
  pos = i + 1;
  return true;
}

function object(): boolean {
  pos++;
  if (body[pos] === 0x7d) {
    pos++;
    return true;
  }
  const frame = keys.length;
  for (;;) {
    if (body[pos] !== 0x22) return false;
    const from = pos + 1;
    const first = body[from]!;
    if (first >= 0x30 && first <= 0x39) return false;
    if (!string()) return false;
    const to = pos - 1;
    if (!newKey(frame, from, to)) return false;
    if (body[pos] !== 0x3a) return false;
    pos++;
    if (!value()) return false;
    const c = body[pos];
    pos++;
    if (c === 0x2c) continue;
    if (c !== 0x7d) return false;
    keys.length = frame;
    return true;
  }
}

/** Records body[from, to) as a key of the object whose keys start at `frame`; false for a repeat. */
function newKey(frame: number, from: number, to: number): boolean {
  if (keys.length - frame >= MAX_KEYS * 3) return false;
  let hash = 0x811c9dc5;
  for (let i = from; i < to; i++) hash = Math.imul(hash ^ body[i]!, 0x01000193);
  for (let k = frame; k < keys.length; k += 3) {
    if (keys[k] === hash && body.compare(body, from, to, keys[k + 1], keys[k + 2]) === 0) return false;
  }
  keys.push(hash, from, to);
  return true;
}

function array(): boolean {
  pos++;
  if (body[pos] === 0x5d) {
    pos++;
    return true;
  }
  for (;;) {
    if (!value()) return false;
    const c = body[pos];
    pos++;
    if (c === 0x2c) continue;
    return c === 0x5d;
  }
}

const TRUE = Buffer.from('true');
const FALSE = Buffer.from('false');
const NULL = Buffer.from('null');

function literal(word: Buffer): boolean {
  for (let k = 0; k < word.length; k++) if (body[pos + k] !== word[k]) return false;
  pos += word.length;
  return true;
}

const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;

/** JSON's number grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? */
function number(): boolean {
  if (body[pos] === 0x2d) pos++;
  if (body[pos] === 0x30) pos++;
  else if (isDigit(body[pos])) while (isDigit(body[pos])) pos++;
  else return false;
  if (body[pos] === 0x2e) {
    pos++;
    if (!isDigit(body[pos])) return false;
    while (isDigit(body[pos])) pos++;
  }
  if (body[pos] === 0x65 || body[pos] === 0x45) {
    pos++;
    if (body[pos] === 0x2b || body[pos] === 0x2d) pos++;
    if (!isDigit(body[pos])) return false;
    while (isDigit(body[pos])) pos++;
  }
  return true;
}
