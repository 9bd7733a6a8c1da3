// login, logout, whoami. Definitions only; what they need at run time is imported when they run.
import type { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdLogin } from './login';
import { newCmdLogout } from './logout';
import { newCmdWhoami } from './whoami';

export function registerAuthCommands(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdLogin(deps));
  program.addCommand(newCmdLogout(deps));
  program.addCommand(newCmdWhoami(deps));
}
