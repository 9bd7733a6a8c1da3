// Man pages from the command tree that makes the help, as git and gh ship them: booking(1) for the
// program and its global options, booking-bookings(1) for a group, booking-bookings-list(1) for each
// command. The build writes them to man/ (scripts/build.mjs); package.json's "man" installs them, so
// `man booking-bookings-list` works after `npm install -g`.
import { Help, type Command, type Option } from 'commander';
import { commandPath } from './help';
import { commandFacts, printsText, runsUntilStopped, STOPPED_RULE } from './commands/define';
import { CAPTURES, CONFIG_FILE, DESCRIBES, ENVIRONMENT, EXIT_CODES, EXIT_MEANINGS, MANUAL, PROGRAM_DESCRIPTION } from './man-text';

interface ManPage {
  /** "booking-bookings-list.1" */
  file: string;
  text: string;
}

/** Every page: the program's, and one per visible command, groups and leaves alike. */
export function manPages(program: Command, version: string): ManPage[] {
  const pages: ManPage[] = [];
  const visit = (cmd: Command) => {
    pages.push({ file: `${pageName(cmd)}.1`, text: page(program, cmd, version) });
    for (const sub of new Help().visibleCommands(cmd)) if (sub.name() !== 'help') visit(sub);
  };
  visit(program);
  return pages;
}

/** "booking-bookings-list" (the program: "booking"). */
export function pageName(cmd: Command): string {
  const path = commandPath(cmd);
  return path ? `booking-${path.replace(/ /g, '-')}` : 'booking';
}

/** Text as roff reads it literally: backslashes, dashes, and a line's leading dot or quote escaped. */
function roff(text: string): string {
  return text
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

/** The help's text after the options (notes and examples), as defineCommand adds it. */
function helpAfter(cmd: Command): string {
  let text = '';
  const saved = cmd.configureOutput();
  cmd.configureOutput({ ...saved, writeOut: (s) => void (text += s) });
  try {
    cmd.outputHelp();
  } finally {
    cmd.configureOutput(saved);
  }
  const formatted = cmd.helpInformation();
  const at = text.indexOf(formatted);
  return (at < 0 ? '' : text.slice(at + formatted.length)).trim();
}

/** The notes before "Examples:" and the examples (unindented) after it. */
function splitExamples(after: string): [string, string] {
  const at = after.indexOf('Examples:\n');
  if (at < 0) return [after, ''];
  const examples = after
    .slice(at + 'Examples:\n'.length)
    .split('\n')
    .map((l) => l.replace(/^ {2}/, ''))
    .join('\n');
  return [after.slice(0, at).trim(), examples.trim()];
}

/** Text as filled roff lines of at most 80 bytes (mandoc's style rule), broken at spaces. */
function fill(text: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of roff(text).split(/ +/)) {
    if (line !== '' && Buffer.byteLength(`${line} ${word}`) > 80) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  // A line the filling starts with a dot or a quote would be read as a request: \& keeps it text.
  return `${lines.map((l) => (/^[.']/.test(l) ? `\\&${l}` : l)).join('\n')}\n`;
}

/** Lines kept as they are (.nf), a long one continued on the next input line (an escaped newline). */
function literal(text: string): string {
  const lines = roff(text)
    .split('\n')
    .map((l) => {
      const parts: string[] = [];
      let rest = l;
      // Cut at a space before 78 bytes, never inside an escape: the continuation joins the pieces again.
      while (Buffer.byteLength(rest) > 79) {
        const at = rest.lastIndexOf(' ', 77);
        if (at <= 0) break;
        parts.push(`${rest.slice(0, at + 1)}\\`);
        rest = rest.slice(at + 1);
      }
      return [...parts, rest].map((piece, i) => (i > 0 && /^[.']/.test(piece) ? `\\&${piece}` : piece)).join('\n');
    });
  return `.nf\n${lines.join('\n')}\n.fi\n`;
}

function item(term: string, text: string, bold = true): string {
  return `.TP\n${bold ? '.B ' : ''}${roff(term)}\n${fill(text)}`;
}

function optionsSection(title: string, options: readonly Option[], help: Help): string {
  if (options.length === 0) return '';
  return `.SH ${title}\n${options.map((o) => item(help.optionTerm(o), help.optionDescription(o))).join('')}`;
}

/** "list bookings, following cursors" → "List bookings, following cursors." */
function sentence(text: string): string {
  const t = text.trim();
  return t === '' ? t : `${t[0]!.toUpperCase()}${t.slice(1)}${/[.!?]$/.test(t) ? '' : '.'}`;
}

/** The page's date: the build's (SOURCE_DATE_EPOCH when set, for a reproducible build), as YYYY-MM-DD. */
function buildDate(): string {
  const epoch = Number(process.env.SOURCE_DATE_EPOCH);
  return new Date(Number.isFinite(epoch) && epoch > 0 ? epoch * 1000 : Date.now()).toISOString().slice(0, 10);
}

function description(program: Command, cmd: Command, notes: string): string {
  if (cmd === program) return PROGRAM_DESCRIPTION.map(fill).join('.PP\n');
  // The manual's own words when it has them; the help's one line (the NAME line) otherwise.
  const parts = [...(MANUAL[manualKey(cmd)] ?? [sentence(cmd.description())])];
  if (cmd.commands.length === 0) {
    const text = printsText.get(cmd);
    parts.push(text ? DESCRIBES.text(text) : DESCRIBES.records);
    if (commandFacts.get(cmd)?.sendsRequests) parts.push(DESCRIBES.requests);
    if (notes) parts.push(...notes.split(/\n\n+/).map((p) => p.replace(/\s*\n\s*/g, ' ')));
  }
  return parts.map(fill).join('.PP\n');
}

/** The command's key in MANUAL: its words, an `auth` alias of a top-level command by that command's. */
function manualKey(cmd: Command): string {
  return commandPath(cmd)
    .replace(/^auth (login|logout)$/, '$1')
    .replace(/^auth status$/, 'profiles');
}

function exitStatus(cmd: Command): string {
  const own = EXIT_MEANINGS[manualKey(cmd)] ?? {};
  // The program's page and a group's list every code; a leaf, those it can end with.
  const service = cmd.commands.length > 0 || commandFacts.get(cmd)?.sendsRequests === true;
  let codes = EXIT_CODES.filter(([c]) => service || !['3', '4', '5'].includes(c)).map(([c, meaning]): [string, string] => [
    c,
    own[c] ?? (!service && c === '1' ? 'failure.' : meaning),
  ]);
  if (runsUntilStopped.has(cmd)) codes = [['0', STOPPED_RULE], ...codes.filter(([c]) => c !== '0' && c !== '130')];
  return `.SH EXIT STATUS\n${codes.map(([code, meaning]) => item(code, meaning)).join('')}`;
}

function environment(program: Command, cmd: Command): string {
  const leaf = cmd.commands.length === 0;
  const reads = (who: string) =>
    cmd === program ||
    !leaf ||
    who === 'all' ||
    (who === 'requests' && commandFacts.get(cmd)?.sendsRequests === true) ||
    (who === 'records' && !printsText.has(cmd)) ||
    (who === 'secret' && cmd.options.some((o) => o.long === '--secret-file'));
  const vars = ENVIRONMENT.filter(([, , who]) => reads(who));
  return `.SH ENVIRONMENT\n${vars.map(([name, meaning]) => item(name, meaning)).join('')}`;
}

function files(cmd: Command): string {
  const list = [CONFIG_FILE, ...(cmd.options.some((o) => o.long === '--save-dir') ? [CAPTURES] : [])];
  return `.SH FILES\n${list.map(([path, meaning]) => item(path, meaning, false)).join('')}`;
}

function page(program: Command, cmd: Command, version: string): string {
  const help = new Help();
  const name = pageName(cmd);
  const words = ['booking', commandPath(cmd)].filter(Boolean).join(' ');
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  const [notes, examples] = splitExamples(helpAfter(cmd));
  let text = `.TH ${roff(name.toUpperCase())} 1 ${buildDate()} "booking ${roff(version)}" "booking manual"\n`;
  // An alias (`bookings ls`, `bookings view`) is named beside the command: man-db's index takes each
  // name of the NAME line, so `man booking-bookings-view` finds this page once it is installed.
  const aliases = cmd === program ? [] : cmd.aliases();
  const stem = name.slice(0, name.length - cmd.name().length);
  const names = [name, ...aliases.map((a) => `${stem}${a}`)].join(', ');
  text += `.SH NAME\n${fill(`${names} - ${cmd.description() || 'command-line client for the booking service'}`)}`;
  const head = words.slice(0, words.length - cmd.name().length);
  const synopses = [words, ...aliases.map((a) => `${head}${a}`)].map((w) => `.B ${roff(w)}\n${roff(cmd.usage())}\n`);
  text += `.SH SYNOPSIS\n${synopses.join('.br\n')}`;
  text += `.SH DESCRIPTION\n${description(program, cmd, notes)}`;
  const args = help.visibleArguments(cmd);
  if (args.length > 0) text += `.SH ARGUMENTS\n${args.map((a) => item(help.argumentTerm(a), help.argumentDescription(a))).join('')}`;
  const own = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  text += optionsSection(cmd === program ? 'GLOBAL OPTIONS' : 'OPTIONS', own, help);
  if (cmd !== program) text += `.SH GLOBAL OPTIONS\nEvery option of\n.BR booking (1),\nbefore or after the command.\n`;
  if (subs.length > 0) {
    const also = (s: Command) => (s.aliases().length > 0 ? ` (also: ${s.aliases().join(', ')})` : '');
    text += `.SH COMMANDS\n${subs.map((s) => `.TP\n.BR ${roff(pageName(s))} (1)\n${fill(`${s.description()}${also(s)}`)}`).join('')}`;
  }
  text += environment(program, cmd) + files(cmd) + exitStatus(cmd);
  if (examples) text += `.SH EXAMPLES\n${literal(examples)}`;
  const related = [cmd.parent && pageName(cmd.parent), cmd !== program && 'booking'].filter((n): n is string => Boolean(n));
  const seeAlso = [...new Set(related)];
  if (seeAlso.length > 0) text += `.SH SEE ALSO\n${seeAlso.map((n) => `.BR ${roff(n)} (1)`).join(',\n')}\n`;
  return text;
}
