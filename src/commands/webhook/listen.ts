// `booking webhook listen`: its options and examples; the receiver itself (listen-server.ts, with
// node:http) is imported when it runs.
import type { RunResult } from '../deps';
import type { Context } from '../../context';
import { intOption, listOption, sizeOption, durationOption } from '../../options';
import { defineCommand, option, type OptionsOf } from '../define';
import type { WithSecrets } from './secret';
import { secretOptions } from './secret-options';
import { ageOptions, schemeOption } from './scheme-options';

/** --respond-delay's bound: longer than any sender's time-out worth testing, short of a hung run. */
const MAX_RESPOND_DELAY_MS = 120_000;

export const newCmdListen = defineCommand({
  name: 'listen',
  description: 'receive deliveries locally: verify each POST, answer 200 or 401, print a line, save a capture, forward authentic ones',
  options: [
    option('--port <port>', 'port to listen on (0 picks a free one)', intOption(0, 65535), 8787),
    option('--host <host>', 'address to listen on', undefined, '127.0.0.1'),
    option('--forward-to <url>', 'forward authentic deliveries, unchanged, to this URL'),
    option('--save-dir <dir>', 'where captures are saved', undefined, 'booking-captures'),
    option('--no-save', 'do not save captures'),
    option(
      '--max-saved <size>',
      'stop saving when the save folder holds this much (500M, 2G); deliveries are still verified',
      sizeOption,
    ).default(1024 ** 3, '1G'),
    option('--events <names>', 'show and forward only these events (comma-separated); others are answered 200 and counted', listOption),
    option(
      '--respond <status>',
      'answer authentic deliveries with this HTTP status (200-599), to watch a sender retry',
      intOption(200, 599),
    ),
    option('--respond-after <n>', 'with --respond: answer so the first N attempts of each delivery only, then 200', intOption(0, 1000)),
    option(
      '--respond-delay <duration>',
      'wait this long before answering each delivery (250ms, 10s; at most 120s)',
      durationOption(MAX_RESPOND_DELAY_MS),
    ),
    schemeOption('verify deliveries in this scheme (default service)'),
    ...ageOptions(),
    ...secretOptions(),
  ],
  examples: [
    'booking webhook listen --secret-file old-secret.txt --secret-file new-secret.txt',
    'booking webhook listen --port 9000 --forward-to http://127.0.0.1:3000/webhooks --secret-file secret.txt',
    'booking webhook listen --respond 500 --respond-after 2 --respond-delay 2s --secret-file secret.txt',
    'booking webhook listen --scheme stripe --tolerance 10m --events booking.created,booking.cancelled --max-saved 200M --secret-file stripe-secret.txt',
  ],
  run: (opts, ctx): RunResult => runListen(opts, ctx),
});

/** What the receiver takes: the flags (each optional, as a test gives a few) and two settings for tests. */
export type ListenOptions = Partial<WithSecrets<OptionsOf<typeof newCmdListen>>> & {
  /** Bytes of bodies held at once; a setting for tests, not an option. */
  maxInFlight?: number;
  /** A sender idle this long while sending its headers or body is cut; a setting for tests, not an option. */
  idleTimeoutMs?: number;
};

export async function runListen(opts: ListenOptions, ctx: Context): RunResult {
  const { listen } = await import('./listen-server');
  return listen(opts, ctx);
}
