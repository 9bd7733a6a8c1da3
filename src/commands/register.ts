// Every top-level command, in the order `booking --help` lists them: a loader of the command's file,
// or of a group's (its file lists its subcommands, one line each; src/commands/tree.ts). A loader is
// an import(), a lazy require in the bundle: a run evaluates only the command it names. commander
// registers the tree (src/commands/build.ts, registerTree); a plain line reads it without commander
// (src/commands/plain.ts).
import type { Tree } from './tree';
import { PROFILES_COMMAND } from '../completion/shells';

export const TREE: Tree = {
  login: () => import('./auth/login/login').then((m) => m.newCmdLogin),
  logout: () => import('./auth/logout').then((m) => m.newCmdLogout),
  whoami: () => import('./auth/whoami').then((m) => m.newCmdWhoami),
  profiles: () => import('./auth/profiles').then((m) => m.newCmdProfiles),
  auth: () => import('./auth/index').then((m) => m.auth),
  bookings: () => import('./bookings/index').then((m) => m.bookings),
  'event-types': () => import('./event-types/index').then((m) => m.newCmdEventTypes),
  api: () => import('./api/index').then((m) => m.newCmdApi),
  webhook: () => import('./webhook/index').then((m) => m.webhook),
  sandbox: () => import('./sandbox/index').then((m) => m.newCmdSandbox),
  config: () => import('./config/index').then((m) => m.config),
  completion: () => import('./completion/completion').then((m) => m.newCmdCompletion),
  [PROFILES_COMMAND[0]]: () => import('./completion/index').then((m) => m.complete),
  version: () => import('./version/index').then((m) => m.newCmdVersion),
};

/** Whether the word is a top-level command's name (`bookings`), as typed. */
export function namesCommand(word: string | undefined): boolean {
  return word !== undefined && Object.hasOwn(TREE, word);
}
