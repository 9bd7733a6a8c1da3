// Colour, drawn in one place, with chalk (tables, webhook lines, prompts). Whether colour is on is
// decided once, in src/output/io.ts (decideColor, and --no-color in src/cli.ts): chalk's own detection reads
// neither NO_COLOR nor our flag, so this module uses a chalk fixed at 16 colours and only draws.
import { Chalk } from 'chalk';

/** Drawing only: callers ask for it once they know colour is on. */
export const colors = new Chalk({ level: 1 });

const { bold, dim, red, green, yellow } = colors;

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
  const key = text
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  if (GOOD.test(key)) return 'good';
  if (WAITING.test(key)) return 'waiting';
  if (BAD.test(key)) return 'bad';
  return 'other';
}

const TONES: Record<StatusTone, (t: string) => string> = { good: green, waiting: yellow, bad: red, other: (t) => t };

export function tableStyle(color: boolean): Style {
  return color ? { bold, status: (t) => TONES[statusTone(t)](t) } : plain;
}
