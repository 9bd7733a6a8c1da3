// The hidden `booking __complete …` group: values the completion scripts ask for at TAB time
// (src/commands/tree.ts). `booking completion` itself is completion.ts.
import { PROFILES_COMMAND } from '../../completion/shells';
import { group } from '../tree';

export const complete = group(
  'values for the completion scripts',
  {
    [PROFILES_COMMAND[1]]: () => import('./completion').then((m) => m.newCmdCompleteProfiles),
  },
  { hidden: true },
);
