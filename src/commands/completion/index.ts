// `booking completion <shell>` prints the committed script for that shell; the hidden
// `booking __complete profiles` lists profile names for the scripts at TAB time. Both load their
// code only when run: start-up time is benchmarked.
import { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { argument, defineCommand, helpChoices } from '../define';
import { UsageError } from '../../errors';
import { PROFILES_COMMAND, SHELLS, type Shell } from '../../completion/shells';

const newCmdCompletion = defineCommand({
  name: 'completion',
  printsText: 'a completion script',
  description: 'print the shell completion script for bash, zsh or fish',
  arguments: [
    // The shells listed in the help and the completions; the parser rejects another with one line
    // of ours rather than commander's wordy one.
    helpChoices(argument('<shell>', 'bash, zsh or fish', parseShell), SHELLS),
  ],
  examples: [
    'booking completion bash > ~/.local/share/bash-completion/completions/booking',
    'booking completion zsh > ~/.zfunc/_booking   # a folder in $fpath, before compinit runs',
    'booking completion fish > ~/.config/fish/completions/booking.fish',
  ],
  async run({ shell }, ctx) {
    const { completionScript } = await import('../../completion/script-file');
    ctx.io.stdout.write(completionScript(shell));
  },
});

function parseShell(value: string): Shell {
  if (!(SHELLS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown shell "${value}": choose ${SHELLS.slice(0, -1).join(', ')} or ${SHELLS.at(-1)}.`);
  }
  return value as Shell;
}

const [completeName, completeWhat] = PROFILES_COMMAND;

const newCmdCompleteProfiles = defineCommand({
  name: completeWhat,
  printsText: 'profile names',
  description: '',
  examples: [],
  async run(_opts, ctx) {
    const { profileNames } = await import('../../completion/profiles');
    for (const profile of profileNames(ctx.env)) ctx.io.stdout.write(`${profile}\n`);
  },
});

function newCmdCompleteHelper(deps: CommandDeps): Command {
  return new Command(completeName)
    .description('values for the completion scripts')
    .helpCommand(false)
    .addCommand(newCmdCompleteProfiles(deps));
}

export function registerCompletionCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdCompletion(deps));
  program.addCommand(newCmdCompleteHelper(deps), { hidden: true });
}
