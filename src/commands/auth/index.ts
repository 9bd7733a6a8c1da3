// login, logout, whoami, profiles (and its alias auth status). Definitions only; what they need at run time is imported when they run.
import { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdLogin } from './login';
import { newCmdLogout } from './logout';
import { newCmdWhoami } from './whoami';
import { newCmdAuthStatus, newCmdProfiles } from './profiles';

export function registerAuthCommands(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdLogin(deps));
  program.addCommand(newCmdLogout(deps));
  program.addCommand(newCmdWhoami(deps));
  program.addCommand(newCmdProfiles(deps));
  // gh's spelling of the same question.
  program.addCommand(
    new Command('auth').description('the profiles and their keys (auth status = profiles)').addCommand(newCmdAuthStatus(deps)),
  );
}
