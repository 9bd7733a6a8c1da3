// login, logout, whoami, profiles, and gh's `auth` group (auth login, logout, status, token).
// Definitions only; what they need at run time is imported when they run.
import { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdAuthLogin, newCmdLogin } from './login';
import { newCmdAuthLogout, newCmdLogout } from './logout';
import { newCmdWhoami } from './whoami';
import { newCmdAuthStatus, newCmdProfiles } from './profiles';
import { newCmdAuthToken } from './token';

export function registerAuthCommands(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdLogin(deps));
  program.addCommand(newCmdLogout(deps));
  program.addCommand(newCmdWhoami(deps));
  program.addCommand(newCmdProfiles(deps));
  // What a gh user types first; the top-level commands stay.
  program.addCommand(
    new Command('auth')
      .description('log in and out, the profiles and their keys (gh style: auth login, logout, status, token)')
      .addCommand(newCmdAuthLogin(deps))
      .addCommand(newCmdAuthLogout(deps))
      .addCommand(newCmdAuthStatus(deps))
      .addCommand(newCmdAuthToken(deps)),
  );
}
