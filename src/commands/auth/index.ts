// gh's `auth` group (auth login, logout, status, token), one line per subcommand, in help order
// (src/commands/tree.ts). login, logout, whoami and profiles are also top-level commands.
import { group } from '../tree';

export const auth = group('log in and out, the profiles and their keys (gh style: auth login, logout, status, token)', {
  login: () => import('./login/login').then((m) => m.newCmdAuthLogin),
  logout: () => import('./logout').then((m) => m.newCmdAuthLogout),
  status: () => import('./profiles').then((m) => m.newCmdAuthStatus),
  token: () => import('./token').then((m) => m.newCmdAuthToken),
});
