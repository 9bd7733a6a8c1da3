// `booking sandbox`: its description and examples; its flags are options.ts's. The server itself is
// imported when the command runs (run.ts), so registering this command costs every other command
// nothing at start-up.
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import { sandboxOptions } from './options';
import { runSandbox } from './run';

export const newCmdSandbox = defineCommand({
  name: 'sandbox',
  description: 'run a local fake of the service: the four endpoints, paging, and signed webhooks of a simulated booking lifecycle',
  options: sandboxOptions,
  examples: [
    'booking sandbox',
    'booking sandbox --port 0 --bookings 500 --seed 7',
    'booking sandbox --webhook-url http://127.0.0.1:8787/webhooks --tick 1',
    'booking sandbox --webhook-url http://127.0.0.1:8787/webhooks --scheme stripe --retry-delays 0.2,0.4,0.8',
  ],
  runsUntilStopped: true,
  run: (opts, ctx): RunResult => runSandbox(opts, ctx),
});
