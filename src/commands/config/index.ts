// `booking config …`: the settings of the --profile profile, one line per subcommand, in help order
// (src/commands/tree.ts).
import { group } from '../tree';

export const config = group(
  "show and change the profile's settings (baseUrl, apiKey, cursorPath, itemsPath, cursorParam, cursorFromLast, keyStore, tz)",
  {
    path: () => import('./path').then((m) => m.newCmdConfigPath),
    list: () => import('./list').then((m) => m.newCmdConfigList),
    get: () => import('./get').then((m) => m.newCmdConfigGet),
    set: () => import('./set').then((m) => m.newCmdConfigSet),
    unset: () => import('./set').then((m) => m.newCmdConfigUnset),
  },
);
