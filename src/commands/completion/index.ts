// `booking completion <shell>` prints the committed script for that shell; the hidden
// `booking __complete profiles` lists profile names for the scripts at TAB time. Both load their
// code only when run: start-up time is benchmarked.
import { Argument, Command } from 'commander';
import type { CommandDeps } from '../deps';
import { UsageError } from '../../errors';
import { PROFILES_COMMAND, SHELLS, type Shell } from '../../completion/shells';

export function newCmdCompletion(deps: CommandDeps): Command {
  return new Command('completion')
    .description('print the shell completion script for bash, zsh or fish')
    .addArgument(
      // choices() lists the shells in the help and the completions; the parser after it replaces
      // commander's wordy rejection with one line of ours.
      new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS).argParser(parseShell),
    )
    .addHelpText('after', INSTALL_EXAMPLES)
    .action(async (shell: Shell, _opts: unknown, cmd: Command) => {
      const ctx = deps.context(cmd);
      const { completionScript } = await import('../../completion/script-file');
      ctx.io.stdout.write(completionScript(shell));
    });
}

const INSTALL_EXAMPLES = `
Examples:
  booking completion bash > ~/.local/share/bash-completion/completions/booking
  booking completion zsh > ~/.zfunc/_booking   # a folder in $fpath, before compinit runs
  booking completion fish > ~/.config/fish/completions/booking.fish`;

function parseShell(value: string): Shell {
  if (!(SHELLS as readonly string[]).includes(value)) {
    throw new UsageError(`unknown shell "${value}": choose ${SHELLS.slice(0, -1).join(', ')} or ${SHELLS.at(-1)}.`);
  }
  return value as Shell;
}

function newCmdCompleteHelper(deps: CommandDeps): Command {
  const [name, what] = PROFILES_COMMAND;
  return new Command(name)
    .description('values for the completion scripts')
    .helpCommand(false)
    .addCommand(
      new Command(what).action(async (_opts: unknown, cmd: Command) => {
        const ctx = deps.context(cmd);
        const { profileNames } = await import('../../completion/profiles');
        for (const profile of profileNames(ctx.env)) ctx.io.stdout.write(`${profile}\n`);
      }),
    );
}

export function registerCompletionCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdCompletion(deps));
  program.addCommand(newCmdCompleteHelper(deps), { hidden: true });
}
