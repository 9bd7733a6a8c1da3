// Help as gh gives it: the global options listed once, in `booking --help`, and named in one line
// by every subcommand's help; `booking help <command> [<subcommand>]` for any command; an unknown
// name there is a usage error with a suggestion, not the whole help dumped on stderr.
import { Command, Help } from 'commander';
import { UsageError } from './base/errors';
import { examplesText, printsText } from './commands/define';
import { refuseShaping } from './output/shaping';

const GLOBAL_OPTIONS_LINE = 'global options: see booking --help';

/** Help layout for the program and, by inheritance, its subcommands. */
export function configureHelpLayout(program: Command): void {
  program.configureHelp({
    sortSubcommands: false,
    showGlobalOptions: false,
    formatHelp(cmd, helper) {
      const text = Help.prototype.formatHelp.call(helper, cmd, helper);
      return cmd.parent ? `${text}\n${GLOBAL_OPTIONS_LINE}\n` : text;
    },
  });
}

/**
 * `booking help [command...]`, and a group's own `booking bookings help [command...]`: that command's
 * help on stdout, however deep. Replaces commander's `help [command]`, which goes one level deep and,
 * given an unknown name, dumps the group's help on stderr with no word about the name.
 */
export function addHelpCommand(parent: Command): void {
  const group = parent.parent ? commandPath(parent) : undefined;
  const commands = visible(parent).map((c) => c.name());
  // `booking help help` is a question; `booking bookings help help` is not.
  const names = group ? commands.filter((n) => n !== 'help') : [...new Set([...commands, 'help'])];
  const help = new Command('help')
    .description(
      group ? `show the help of a subcommand: booking ${group} help ${names[0]}` : 'show the help of a command: booking help bookings list',
    )
    .argument('[command...]', group ? 'the subcommand' : 'the command and subcommand')
    .helpOption(false)
    .action((words: string[], _opts: unknown, cmd: Command) => {
      refuseShaping(cmd, 'help text');
      findCommand(parent, words).outputHelp();
    });
  // The names for completion (and help) only: the parser lets every word through to be looked up.
  const arg = help.registeredArguments[0]!;
  arg.choices(names);
  arg.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  printsText.set(help, 'help text');
  const examples = group
    ? [`booking ${group} help`, `booking ${group} help ${names[0]}`]
    : ['booking help bookings list', 'booking help webhook verify'];
  help.addHelpText('after', examplesText(examples));
  parent.helpCommand(false);
  parent.addCommand(help);
}

/** Whether a group offers `help [command]` (a hidden group is built without one). */
export function hasHelpCommand(group: Command): boolean {
  return visible(group).some((c) => c.name() === 'help');
}

function findCommand(parent: Command, words: string[]): Command {
  let current = parent;
  for (const word of words) {
    const commands = visible(current);
    const next = commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) {
      const where = current.parent ? ` for 'booking ${commandPath(current)}'` : '';
      const suggestion = closest(
        word,
        commands.flatMap((c) => [c.name(), ...c.aliases()]),
      );
      if (commands.length === 0) throw new UsageError(`'booking ${commandPath(current)}' has no subcommands ('${word}' given)`);
      throw new UsageError(
        `unknown command '${word}'${where}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`,
        `commands: ${commands.map((c) => c.name()).join(', ')}`,
      );
    }
    current = next;
  }
  return current;
}

function visible(cmd: Command): Command[] {
  return new Help().visibleCommands(cmd);
}

/** "bookings list": the words that name the command, without the program's. */
export function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The candidate nearest to the word, when near enough to be a typo (as commander suggests). */
function closest(word: string, candidates: string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(word, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  if (best === undefined) return undefined;
  const prefix = best.startsWith(word) && word.length >= 2;
  return prefix || bestDistance <= Math.max(1, Math.floor(best.length * 0.4)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = row;
  }
  return prev[b.length]!;
}
