// The API key must never be printed, however a server hands it back: quoted in an error, in a
// record, inside a cursor that a resume hint repeats. A server may change its case or cut it, so the
// key is matched without regard to case, and any run of MASK_RUN or more of its consecutive characters
// counts as the key. The mask is the first stage of the output door (src/output/door.ts), so no output
// path (records, tables, errors, hints, --debug, a pager) can forget it; a key is added once it is
// about to be sent.

/** How long a piece of the key must be to be masked: long enough that ordinary text never matches. */
const MASK_RUN = 12;
const MASK = '****';
/** The quick test's block length (see Masker.anchors): at most (MASK_RUN + 1) / 2. */
const BLOCK = 6;

export interface Masker {
  pattern: RegExp;
  /**
   * A quick test first: every run of MASK_RUN characters of the key holds a whole aligned block of
   * BLOCK (key[6m..6m+6): the first block at or after the run's start ends at most 5 + 6 characters
   * into it), and an alternation of a few blocks is several times cheaper to scan for than of every
   * run (a long key has dozens); most output holds none, so the full pattern rarely runs. Blocks of 6
   * rather than 4: half as many, scanned ~1.5x faster, and a hex form's blocks are never all digits
   * (one of 4 matched ordinary ids and ran the full pattern on a page in five).
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
  else for (let i = 0; i + BLOCK <= lower.length; i += BLOCK) blocks.add(lower.slice(i, i + BLOCK));
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

/** Where `m` finds the key in `text`: [start, end) of each run, pushed onto `out`. */
function runsOf(text: string, m: Masker, out: [number, number][]): void {
  if (!m.anchors.test(text)) return;
  m.pattern.lastIndex = 0;
  for (let hit = m.pattern.exec(text); hit; hit = m.pattern.exec(text)) {
    const end = runEnd(text, hit.index, hit[0], m.lower);
    out.push([hit.index, end]);
    m.pattern.lastIndex = end;
  }
}

/** `text` with every form of `key` in it (any case, any run of MASK_RUN+ characters, encoded forms) masked. */
export function maskKeyIn(text: string, key: string | undefined): string {
  return key ? maskWithAll(text, keyMaskers(key)) : text;
}

/**
 * The key as it may appear once a server or a URL has handled it: percent-encoded (a path or query
 * with `encodeURIComponent`, a form with URLSearchParams; hex in either case is matched since the
 * mask ignores case), with JSON's `\/`, in hex (either case), or in base64 at any alignment (Basic
 * auth, a token that wraps it).
 */
function encodedForms(key: string): string[] {
  // Encoders write U+FFFD for a lone surrogate (possible in a key from a JSON config file), where
  // encodeURIComponent would throw: toWellFormed() does the same (ES2024, in node 20; not in our TS lib).
  const uri = encodeURIComponent((key as string & { toWellFormed(): string }).toWellFormed());
  const bytes = Buffer.from(key);
  // A key with " or \ (any printable ASCII may be in one) is written escaped in JSON (\" \\), with
  // its quotes doubled in a csv cell, and both in a csv cell holding JSON: those forms are the key too.
  const json = JSON.stringify(key).slice(1, -1);
  const forms = new Set([
    key,
    uri,
    formEncoded(uri),
    key.replaceAll('/', '\\/'),
    json,
    json.replaceAll('/', '\\/'),
    key.replaceAll('"', '""'),
    json.replaceAll('"', '""'),
    bytes.toString('hex'),
    ...base64Forms(bytes),
  ]);
  return [...forms];
}

/**
 * The characters of base64 and base64url that only the key's bytes decide, wherever the key starts
 * in the encoded text: at byte 0, 1 or 2 of a 3-byte group (`Basic base64(user:KEY)` puts it at 2,
 * `base64("Bearer " + KEY)` at 1). Each alignment encodes differently; the characters that mix in a
 * byte before or after the key are left out (2 at the start at offset 1, 3 at offset 2; at the end,
 * the one a partial group shares with what follows).
 */
function base64Forms(bytes: Buffer): string[] {
  const forms: string[] = [];
  for (const offset of [0, 1, 2]) {
    const total = offset + bytes.length;
    const end = 4 * Math.floor(total / 3) + (total % 3);
    const from = [0, 2, 3][offset]!;
    const padded = Buffer.concat([Buffer.alloc(offset), bytes]);
    for (const encoding of ['base64', 'base64url'] as const) forms.push(padded.toString(encoding).slice(from, end));
  }
  return forms;
}

// What encodeURIComponent leaves as it is and a form body escapes (URLSearchParams).
const FORM_ESCAPED: Record<string, string> = { '!': '%21', "'": '%27', '(': '%28', ')': '%29', '~': '%7E' };

/**
 * The key as a form body or query string carries it (application/x-www-form-urlencoded), as
 * URLSearchParams writes it, from its encodeURIComponent form: ! ' ( ) ~ escaped too, a space as +.
 * Written out, without regular expressions, because this runs at the start of every run that sends
 * the key: URLSearchParams is a large part of node's URL code to compile, and each expression costs a
 * compile of its own.
 */
function formEncoded(uri: string): string {
  let out = '';
  for (const c of uri) out += FORM_ESCAPED[c] ?? c;
  return out.replaceAll('%20', '+');
}

/** The maskers for a key and each of its encoded forms. */
export function keyMaskers(key: string): Masker[] {
  return encodedForms(key).flatMap((form) => maskerFor(form) ?? []);
}

/** `text` with every masker applied. */
export function maskWithAll(text: string, maskers: readonly Masker[]): string {
  // Every form is looked for in the text as it is, and the runs found are joined before any is
  // masked: masked one form after another, a form's run could take part of another form's (a key
  // with " in it and its JSON form \") and leave the rest of it to be seen.
  const runs: [number, number][] = [];
  for (const m of maskers) runsOf(text, m, runs);
  if (runs.length === 0) return text;
  runs.sort((a, b) => a[0] - b[0]);
  let out = '';
  let last = 0;
  let [from, to] = runs[0]!;
  for (const [start, end] of runs) {
    if (start < to) {
      to = Math.max(to, end);
      continue;
    }
    out += text.slice(last, from) + MASK;
    last = to;
    [from, to] = [start, end];
  }
  return out + text.slice(last, from) + MASK + text.slice(to);
}

// `scheme://user:password@`: the password of a URL someone typed (a receiver behind basic auth, a
// proxy) is never printed back, whichever line or record the URL lands in. The scheme starts where a
// run of scheme characters starts (the look-behind): tried inside a long run of letters, the pattern
// would scan to its end from every position, minutes for 300 KB (test/process/hostile-runs.test.ts).
const URL_PASSWORD = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:"'<>\\]*):([^\s/?#@"'<>\\]+)@/gi;

/** `text` with the password of every `scheme://user:pass@` URL in it masked. */
export function maskUrlPasswords(text: string): string {
  // '//' rather than '://': the same answer where it matters, and ':' is in every line of JSON, which
  // the search stops at; '/' is rare.
  if (!text.includes('//')) return text;
  return text.replace(URL_PASSWORD, (_m, user: string) => `${user}:${MASK}@`);
}
