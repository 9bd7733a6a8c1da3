import { Command, Option } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import type { ListenOptions } from './listen-run';
import { intOption, listOption, sizeOption } from '../../options';
import { addSecretOptions } from './secret-options';
import { examples } from '../../help';

export type { ListenOptions };

export function newCmdListen(deps: CommandDeps, runF = runListen): Command {
  const cmd = new Command('listen')
    .description('receive deliveries locally: verify each POST, answer 200 or 401, print a line, save a capture, forward authentic ones')
    .option('--port <port>', 'port to listen on (0 picks a free one)', intOption(0, 65535), 8787)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--forward-to <url>', 'forward authentic deliveries, unchanged, to this URL')
    .option('--save-dir <dir>', 'where captures are saved', 'booking-captures')
    .option('--no-save', 'do not save captures')
    .addOption(
      new Option('--max-saved <size>', 'stop saving when the save folder holds this much (500M, 2G); deliveries are still verified').argParser(sizeOption).default(1024 ** 3, '1G'),
    )
    .option('--events <names>', 'show and forward only these events (comma-separated); others are answered 200 and counted', listOption);
  cmd.addHelpText('after', examples('booking webhook listen --secret-file secret.txt', 'booking webhook listen --port 9000 --forward-to http://127.0.0.1:3000/webhooks --secret-file secret.txt', 'BOOKING_WEBHOOK_SECRET=whsec_sandbox booking webhook listen --no-save'));
  addSecretOptions(cmd).action(async (opts: ListenOptions, command: Command) => {
    deps.setExitCode((await runF(opts, deps.context(command))) ?? 0);
  });
  return cmd;
}

export async function runListen(opts: ListenOptions, ctx: Context): RunResult {
  const { listen } = await import('./listen-run');
  return listen(opts, ctx);
}
