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

/** `booking help [command...]`: that command's help on stdout, however deep. */
export function addHelpCommand(program: Command): void {
  const names = [...new Set([...visible(program).map((c) => c.name()), 'help'])];
  const help = new Command('help')
    .description('show the help of a command: booking help bookings list')
    .argument('[command...]', 'the command and subcommand')
    .helpOption(false)
    .action((words: string[], _opts: unknown, cmd: Command) => {
      refuseShaping(cmd, 'help text');
      findCommand(program, words).outputHelp();
    });
  // The names for completion (and help) only: the parser lets every word through to be looked up.
  const arg = help.registeredArguments[0]!;
  arg.choices(names);
  arg.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  printsText.set(help, 'help text');
  help.addHelpText('after', examplesText(['booking help bookings list', 'booking help webhook verify']));
  // Replaces commander's own `help [command]`, which goes one level deep only (groups keep theirs).
  program.helpCommand(false);
  program.addCommand(help);
}

function findCommand(program: Command, words: string[]): Command {
  let current = program;
  for (const word of words) {
    const commands = visible(current);
    const next = commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) {
      const where = current === program ? '' : ` for 'booking ${commandPath(current)}'`;
      const suggestion = closest(
        word,
        commands.flatMap((c) => [c.name(), ...c.aliases()]),
      );
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
