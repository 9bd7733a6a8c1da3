// `booking sandbox`: flags to options, nothing more. The server itself is imported when the command
// runs (run.ts), so registering this command costs every other command nothing at start-up.
import { InvalidArgumentError } from 'commander';
import type { RunResult } from '../deps';
import { choice, defineCommand, option, type OptionsOf } from '../define';
import { collect, intOption, nonEmpty } from '../../options';
import {
  DEFAULT_API_KEY,
  DEFAULT_BOOKINGS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  DEFAULT_SHAPE,
  DEFAULT_TICK_SECONDS,
  DEFAULT_WEBHOOK_SECRET,
  SHAPES,
  webhookUrlProblem,
} from '../../sandbox/defaults';
import { runSandbox } from './run';
import { parseRetryDelays } from '../../sandbox/retry-delays';

export const newCmdSandbox = defineCommand({
  name: 'sandbox',
  description: 'run a local fake of the service: the four endpoints, paging, and signed webhooks of a simulated booking lifecycle',
  options: [
    option('--port <port>', 'port to listen on; 0 picks a free one', intOption(0, 65_535), DEFAULT_PORT),
    option('--host <host>', 'address to listen on', nonEmpty('--host'), DEFAULT_HOST),
    option('--api-key <key>', 'the bearer key the sandbox accepts', nonEmpty('--api-key'), DEFAULT_API_KEY),
    option('--bookings <n>', 'how many bookings to start with', intOption(0, 100_000), DEFAULT_BOOKINGS),
    option('--seed <seed>', 'seed of the generated data (same seed, same data)', nonEmpty('--seed'), DEFAULT_SEED),
    option('--webhook-url <url>', 'send signed deliveries here (repeatable)', collect(webhookUrl)),
    option('--webhook-secret <secret>', 'signing secret of the deliveries', nonEmpty('--webhook-secret'), DEFAULT_WEBHOOK_SECRET),
    option('--tick <seconds>', 'seconds between lifecycle changes; 0 stops them', tickSeconds, DEFAULT_TICK_SECONDS),
    choice('--shape <name>', 'response shape of lists and objects', SHAPES, DEFAULT_SHAPE),
    option('--latency <ms>', 'add this delay to every response', intOption(0, 600_000)),
    option('--fail-rate <0..1>', 'answer this share of requests with 503', failRate),
    option('--retry-delays <s,s,…>', 'waits before each retry of a failed delivery, in seconds (default 1,2,4,8; none)', parseRetryDelays),
    option('--rate-limit <n>', 'allow n requests per second; answer the rest 429 with Retry-After', intOption(1, 1_000_000)),
  ],
  examples: [
    'booking sandbox',
    'booking sandbox --port 0 --bookings 500 --seed 7',
    'booking sandbox --webhook-url http://127.0.0.1:8787/webhooks --tick 1',
    'booking sandbox --webhook-url http://127.0.0.1:8787/webhooks --retry-delays 0.2,0.4,0.8',
  ],
  run: (opts, ctx): RunResult => runSandbox(opts, ctx),
});

/** The flags as run.ts gets them: --tick in seconds (0 stops the lifecycle), --retry-delays in ms. */
export type SandboxCmdOptions = OptionsOf<typeof newCmdSandbox>;

function webhookUrl(value: string): string {
  const problem = webhookUrlProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

// src/options.ts's secondsOption wants a value above its minimum; here 0 is meaningful (no lifecycle).
// A tick under 10 ms is refused rather than run: the timer works in whole milliseconds, so 0.0004 s
// would round to 0 and nothing would ever happen, while the banner claimed a change every 0.0004s.
const MIN_TICK_SECONDS = 0.01;

function tickSeconds(value: string): number {
  const n = Number(value);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) || n > 86_400 || (n > 0 && n < MIN_TICK_SECONDS)) {
    throw new InvalidArgumentError(`expected 0 (no lifecycle) or seconds from ${MIN_TICK_SECONDS} to 86400.`);
  }
  return n;
}

function failRate(value: string): number {
  const n = Number(value);
  if (!/^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(value) || n > 1) throw new InvalidArgumentError('expected a share from 0 to 1, e.g. 0.2.');
  return n;
}
