// `booking webhook listen`: its options and examples; the server (listen-run.ts) is imported when it runs.
import { Option } from 'commander';
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import type { ListenOptions } from './listen-run';
import { intOption, listOption, sizeOption, durationOption } from '../../options';
import { defineCommand } from '../define';

/** --respond-delay's bound: longer than any sender's time-out worth testing, short of a hung run. */
const MAX_RESPOND_DELAY_MS = 120_000;
import { secretOptions } from './secret-options';

export type { ListenOptions };

export async function runListen(opts: ListenOptions, ctx: Context): RunResult {
  const { listen } = await import('./listen-run');
  return listen(opts, ctx);
}

export const newCmdListen = defineCommand<ListenOptions>({
  name: 'listen',
  description: 'receive deliveries locally: verify each POST, answer 200 or 401, print a line, save a capture, forward authentic ones',
  options: [
    new Option('--port <port>', 'port to listen on (0 picks a free one)').argParser(intOption(0, 65535)).default(8787),
    new Option('--host <host>', 'address to listen on').default('127.0.0.1'),
    new Option('--forward-to <url>', 'forward authentic deliveries, unchanged, to this URL'),
    new Option('--save-dir <dir>', 'where captures are saved').default('booking-captures'),
    new Option('--no-save', 'do not save captures'),
    new Option('--max-saved <size>', 'stop saving when the save folder holds this much (500M, 2G); deliveries are still verified')
      .argParser(sizeOption)
      .default(1024 ** 3, '1G'),
    new Option('--events <names>', 'show and forward only these events (comma-separated); others are answered 200 and counted').argParser(
      listOption,
    ),
    new Option('--respond <status>', 'answer authentic deliveries with this HTTP status (200-599), to watch a sender retry').argParser(
      intOption(200, 599),
    ),
    new Option('--respond-after <n>', 'with --respond: answer so the first N attempts of each delivery only, then 200').argParser(
      intOption(0, 1000),
    ),
    new Option('--respond-delay <duration>', 'wait this long before answering each delivery (250ms, 10s; at most 120s)').argParser(
      durationOption(MAX_RESPOND_DELAY_MS),
    ),
    ...secretOptions(),
  ],
  examples: [
    'booking webhook listen --secret-file old-secret.txt --secret-file new-secret.txt',
    'booking webhook listen --port 9000 --forward-to http://127.0.0.1:3000/webhooks --secret-file secret.txt',
    'booking webhook listen --respond 500 --respond-after 2 --respond-delay 2s --secret-file secret.txt',
    'booking webhook listen --events booking.created,booking.cancelled --max-saved 200M --secret-file secret.txt',
  ],
  run: runListen,
});
