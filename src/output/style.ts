// Colour, drawn in one place: SGR codes around text (tables, webhook lines, prompts). Whether colour is
// on is decided once, in src/io.ts (decideColor, and --no-color in src/cli.ts); this module only
// draws. A few fixed codes, so no library: chalk's detection ignored NO_COLOR and --no-color anyway.

/** Text between an SGR code and its reset; empty text stays empty (as chalk left it). */
export const ansi =
  (open: number, close: number) =>
  (text: string): string =>
    text === '' ? '' : `\x1b[${open}m${text}\x1b[${close}m`;

const bold = ansi(1, 22);
const dim = ansi(2, 22);
const red = ansi(31, 39);
const green = ansi(32, 39);
const yellow = ansi(33, 39);

/** The webhook commands' three tones. */
export interface Paint {
  good(text: string): string;
  bad(text: string): string;
  dim(text: string): string;
}

export function paint(color: boolean): Paint {
  if (!color) return { good: (t) => t, bad: (t) => t, dim: (t) => t };
  return { good: green, bad: red, dim };
}

/** The table's: header bold, statuses by meaning. */
export interface Style {
  bold(text: string): string;
  /** `text` coloured by what the (already escaped) status value means. */
  status(text: string): string;
}

const plain: Style = { bold: (t) => t, status: (t) => t };

const GOOD = /^(confirmed|accepted|approved|completed|complete|done|active|booked|scheduled|paid|success(ful)?)$/;
const WAITING = /^(pending|unconfirmed|awaiting.*|tentative|requested|rescheduled|hold|on_?hold|draft|new)$/;
const BAD = /^(cancell?ed|rejected|declined|no_?show|failed|error|expired|deleted|refunded)$/;

type StatusTone = 'good' | 'waiting' | 'bad' | 'other';

function statusTone(text: string): StatusTone {
  const key = text.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (GOOD.test(key)) return 'good';
  if (WAITING.test(key)) return 'waiting';
  if (BAD.test(key)) return 'bad';
  return 'other';
}

const TONES: Record<StatusTone, (t: string) => string> = { good: green, waiting: yellow, bad: red, other: (t) => t };

export function tableStyle(color: boolean): Style {
  return color ? { bold, status: (t) => TONES[statusTone(t)](t) } : plain;
}
