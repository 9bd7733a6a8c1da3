// Man pages from the command tree that makes the help, as git and gh ship them: booking(1) for the
// program and its global options, booking-bookings(1) for a group, booking-bookings-list(1) for each
// command. The build writes them to man/ (scripts/build.mjs); package.json's "man" installs them, so
// `man booking-bookings-list` works after `npm install -g`.
import { Help, type Command, type Option } from 'commander';
import { commandPath } from './help';

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

function optionsSection(title: string, options: readonly Option[], help: Help): string {
  if (options.length === 0) return '';
  const items = options.map((o) => `.TP\n.B ${roff(help.optionTerm(o))}\n${roff(help.optionDescription(o))}\n`);
  return `.SH ${title}\n${items.join('')}`;
}

function page(program: Command, cmd: Command, version: string): string {
  const help = new Help();
  const name = pageName(cmd);
  const words = ['booking', commandPath(cmd)].filter(Boolean).join(' ');
  const subs = help.visibleCommands(cmd).filter((c) => c.name() !== 'help');
  let text = `.TH ${roff(name.toUpperCase())} 1 "" "booking ${roff(version)}" "booking manual"\n`;
  text += `.SH NAME\n${roff(name)} \\- ${roff(cmd.description() || 'command-line client for the booking service')}\n`;
  text += `.SH SYNOPSIS\n.B ${roff(words)}\n${roff(cmd.usage())}\n`;
  if (cmd !== program) text += `.SH DESCRIPTION\n${roff(cmd.description())}.\n`;
  const args = help.visibleArguments(cmd);
  if (args.length > 0)
    text += `.SH ARGUMENTS\n${args.map((a) => `.TP\n.B ${roff(help.argumentTerm(a))}\n${roff(help.argumentDescription(a))}\n`).join('')}`;
  const own = help.visibleOptions(cmd).filter((o) => o.long !== '--help');
  text += optionsSection(cmd === program ? 'GLOBAL OPTIONS' : 'OPTIONS', own, help);
  if (cmd !== program) text += `.SH GLOBAL OPTIONS\nEvery option of\n.BR booking (1),\nbefore or after the command.\n`;
  if (subs.length > 0) {
    text += `.SH COMMANDS\n${subs.map((s) => `.TP\n.BR ${roff(pageName(s))} (1)\n${roff(s.description())}\n`).join('')}`;
  }
  const [notes, examples] = splitExamples(helpAfter(cmd));
  if (notes) text += `.SH NOTES\n.nf\n${roff(notes)}\n.fi\n`;
  if (examples) text += `.SH EXAMPLES\n.nf\n${roff(examples)}\n.fi\n`;
  const related = [cmd.parent && pageName(cmd.parent), cmd !== program && 'booking'].filter((n): n is string => Boolean(n));
  const seeAlso = [...new Set(related)];
  if (seeAlso.length > 0) text += `.SH SEE ALSO\n${seeAlso.map((n) => `.BR ${roff(n)} (1)`).join(',\n')}\n`;
  return text;
}
