// `booking completion <shell>` prints the script the build wrote for that shell; the hidden
// `booking __complete profiles` lists profile names for the scripts at TAB time. Both load their
// code only when run: start-up time is benchmarked.
import { argument, defineCommand, helpChoices } from '../define';
import { UsageError } from '../../base/errors';
import { PROFILES_COMMAND, SHELLS, type Shell } from '../../completion/shells';

export const newCmdCompletion = defineCommand({
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

export const newCmdCompleteProfiles = defineCommand({
  name: PROFILES_COMMAND[1],
  printsText: 'profile names',
  description: '',
  examples: [],
  async run(_opts, ctx) {
    const { profileNames } = await import('../../completion/profiles');
    for (const profile of profileNames(ctx.env)) ctx.io.stdout.write(`${profile}\n`);
  },
});
