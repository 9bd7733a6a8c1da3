// `booking webhook …`: checking and producing signed deliveries, one line per subcommand, in help
// order (src/commands/tree.ts); src/webhook/ is the library.
import { group } from '../tree';

export const webhook = group('verify, sign, receive and send signed webhook deliveries', {
  verify: () => import('./verify/verify').then((m) => m.newCmdVerify),
  sign: () => import('./sign/sign').then((m) => m.newCmdSign),
  listen: () => import('./listen/listen').then((m) => m.newCmdListen),
  send: () => import('./send/send').then((m) => m.newCmdSend),
});
