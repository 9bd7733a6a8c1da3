// Colour for the table: header bold, statuses by meaning. chalk is loaded only when colour is on, and
// with an explicit level, because chalk's own detection ignores NO_COLOR and --no-color.

export interface Style {
  bold(text: string): string;
  /** `text` coloured by what the (already escaped) status value means. */
  status(text: string): string;
}

const plain: Style = { bold: (t) => t, status: (t) => t };

const GOOD = /^(confirmed|accepted|approved|completed|complete|done|active|booked|scheduled|paid|success(ful)?)$/;
const WAITING = /^(pending|unconfirmed|awaiting.*|tentative|requested|rescheduled|hold|on_?hold|draft|new)$/;
const BAD = /^(cancell?ed|rejected|declined|no_?show|failed|error|expired|deleted|refunded)$/;

export type StatusTone = 'good' | 'waiting' | 'bad' | 'other';

export function statusTone(text: string): StatusTone {
  const key = text.trim().toLowerCase().replace(/[\s-]+/g, '_');
  if (GOOD.test(key)) return 'good';
  if (WAITING.test(key)) return 'waiting';
  if (BAD.test(key)) return 'bad';
  return 'other';
}

export async function loadStyle(color: boolean): Promise<Style> {
  if (!color) return plain;
  const { Chalk } = await import('chalk');
  const chalk = new Chalk({ level: 1 });
  const tones: Record<StatusTone, (t: string) => string> = {
    good: chalk.green,
    waiting: chalk.yellow,
    bad: chalk.red,
    other: (t) => t,
  };
  return { bold: chalk.bold, status: (t) => tones[statusTone(t)](t) };
}
