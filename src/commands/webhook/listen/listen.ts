// `booking webhook listen`: its description and examples; its flags (options.ts), and the receiver
// itself (server.ts, with node:http), imported when it runs.
import type { RunResult } from '../../deps';
import type { Context } from '../../../context';
import { defineCommand } from '../../define';
import { listenOptions, type ListenOptions } from './options';

export const newCmdListen = defineCommand({
  name: 'listen',
  description: 'receive deliveries locally: verify each POST, answer 200 or 401, print a line, save a capture, forward authentic ones',
  options: listenOptions,
  examples: [
    'booking webhook listen --forward-to booking.cancelled=http://127.0.0.1:3000/cancel --forward-to http://127.0.0.1:3000/hooks --secret-file secret.txt',
    'booking webhook listen -o ndjson --port 0 --secret-file secret.txt > deliveries.ndjson  # first line: {"type":"listening",…}',
    'booking webhook listen --respond 500 --respond-after 2 --respond-delay 2s --secret-file secret.txt',
    'booking webhook listen --scheme stripe --tolerance 10m --events booking.created,booking.cancelled --max-saved 200M --secret-file stripe-secret.txt',
  ],
  runsUntilStopped: true,
  run: (opts, ctx): RunResult => runListen(opts, ctx),
});

export async function runListen(opts: ListenOptions, ctx: Context): RunResult {
  const { listen } = await import('./server');
  return listen(opts, ctx);
}
