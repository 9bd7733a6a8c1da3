// `booking webhook …`: checking and producing signed deliveries. Each command's run code lives in
// its *-run.ts beside it and is imported only when that command runs; src/webhook/ is the library.
import type { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdVerify } from './verify';
import { newCmdSign } from './sign';
import { newCmdListen } from './listen';
import { newCmdSend } from './send';

export function registerWebhookCommands(program: Command, deps: CommandDeps): void {
  program
    .command('webhook')
    .description('verify, sign, receive and send signed webhook deliveries')
    .addCommand(newCmdVerify(deps))
    .addCommand(newCmdSign(deps))
    .addCommand(newCmdListen(deps))
    .addCommand(newCmdSend(deps));
}
