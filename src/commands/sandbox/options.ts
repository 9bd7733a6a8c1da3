// `booking sandbox`'s flags and their parsers, and what run.ts gets from them: a module of its own, so
// that the command's file (index.ts) and its run (run.ts) both import the types and neither imports the other.
import { InvalidArgumentError } from 'commander';
import { choice, option, type Values } from '../define';
import { collect, intOption, nonEmpty } from '../../base/options';
import { apiKeyValue } from '../../config/keys';
import { checkPrintable } from '../webhook/shared/secret';
import {
  DEFAULT_API_KEY,
  DEFAULT_BOOKINGS,
  DEFAULT_HOST,
  DEFAULT_PORT,
  DEFAULT_SEED,
  DEFAULT_SHAPE,
  DEFAULT_STANDARD_SECRET,
  DEFAULT_TICK_SECONDS,
  DEFAULT_WEBHOOK_SECRET,
  SHAPES,
  webhookUrlProblem,
} from '../../sandbox/defaults';
import { parseRetryDelays } from '../../sandbox/retry-delays';
import { SCHEME_NAMES } from '../../webhook/schemes/names';

/**
 * A key and a secret the clients could send: the sandbox takes them by the rules every command applies
 * to its own (exit 2 naming the character, never the value), or its clients could never be let in.
 */
const webhookSecret = (value: string) => {
  checkPrintable(Buffer.from(nonEmpty('--webhook-secret')(value)), '--webhook-secret');
  return value;
};

/** The flags of `booking sandbox`, in help order. */
export const sandboxOptions = [
  option('--port <port>', 'port to listen on; 0 picks a free one', intOption(0, 65_535), DEFAULT_PORT),
  option('--host <host>', 'address to listen on', nonEmpty('--host'), DEFAULT_HOST),
  option('--api-key <key>', 'the bearer key the sandbox accepts', apiKeyValue, DEFAULT_API_KEY),
  option('--bookings <n>', 'how many bookings to start with', intOption(0, 100_000), DEFAULT_BOOKINGS),
  option('--seed <seed>', 'seed of the generated data (same seed, same data)', nonEmpty('--seed'), DEFAULT_SEED),
  option('--webhook-url <url>', 'send signed deliveries here (repeatable)', collect(webhookUrl)),
  option('--webhook-secret <secret>', 'signing secret of the deliveries', webhookSecret, DEFAULT_WEBHOOK_SECRET),
  option('--tick <seconds>', 'seconds between lifecycle changes; 0 stops them', tickSeconds, DEFAULT_TICK_SECONDS),
  choice('--shape <name>', 'response shape of lists and objects', SHAPES, DEFAULT_SHAPE),
  option('--latency <ms>', 'add this delay to every response', intOption(0, 600_000)),
  option('--fail-rate <0..1>', 'answer this share of requests with 503', failRate),
  option('--retry-delays <s,s,…>', 'waits before each retry of a failed delivery, in seconds (default 1,2,4,8; none)', parseRetryDelays),
  option('--rate-limit <n>', 'allow n requests per second; answer the rest 429 with Retry-After', intOption(1, 1_000_000)),
  choice(
    '--scheme <scheme>',
    `sign deliveries in this scheme, bodies in its shape: service (the default), cal, calendly, stripe, standard (default secret ${DEFAULT_STANDARD_SECRET})`,
    SCHEME_NAMES,
  ),
];

/** The flags as run.ts gets them: --tick in seconds (0 stops the lifecycle), --retry-delays in ms. */
export type SandboxCmdOptions = Values<[], typeof sandboxOptions>;

function webhookUrl(value: string): string {
  const problem = webhookUrlProblem(value);
  if (problem) throw new InvalidArgumentError(problem);
  return value;
}

// src/base/options.ts's secondsOption wants a value above its minimum; here 0 is meaningful (no lifecycle).
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
