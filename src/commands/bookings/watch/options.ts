// The flags of `bookings watch` and `bookings changes`, in help order, and the values their runs get:
// a module of its own, so that each command's file and its run both import the types and neither
// imports the other.
import { byteSizeOption, durationOption, nonEmpty } from '../../../base/options';
import { parseRetryDelays } from '../../../sandbox/retry-delays';
import { choice, option, type Values } from '../../define';
import { pagingRuleOptions } from '../../shared/paging-options';
import { secretOptions } from '../../webhook/shared/secret-options';
import { SCHEME_NAMES } from '../../../webhook/schemes/names';
import { bookingFilterOptions } from '../list';

const MIN_INTERVAL_S = 2;
const DEFAULT_INTERVAL_S = 10;

/** --interval in seconds (the run counts in seconds), parsed as every DURATION option is. */
function parseInterval(value: string): number {
  return durationOption(86_400_000, MIN_INTERVAL_S * 1000)(value) / 1000;
}

function maxPageOption() {
  return option('--max-page <size>', 'the largest page of the list read; a bigger one stops the run (default 8M)', byteSizeOption);
}

export const watchOptions = [
  option('--interval <duration>', `time between polls: 30, 30s, 2m (at least ${MIN_INTERVAL_S}s)`, parseInterval, DEFAULT_INTERVAL_S),
  option('--initial', 'print the current list first (as "listed" events); with --state, when it starts afresh'),
  option('--state <file>', 'keep the snapshot in FILE and resume from it: the first report is what changed meanwhile', nonEmpty('--state')),
  option('--once', 'poll once (saving --state) and exit 0: the catch-up for scripts and cron'),
  option('--forward-to <url>', 'POST each change as the signed delivery the service would have sent (needs a secret)'),
  ...secretOptions(),
  choice('--scheme <name>', "how forwarded deliveries are signed and shaped (a vendor's headers and event field)", SCHEME_NAMES, 'service'),
  option('--retry-delays <s,s,…>', 'waits before each retry of a failed forward, in seconds (default 1,2,4,8; none)', parseRetryDelays),
  option('--no-retry', 'one attempt per forward; the state moves past a change even when it failed'),
  option('--max-state <size>', 'the most memory (and --state file) the snapshot may take (default 72M)', byteSizeOption),
  maxPageOption(),
  ...bookingFilterOptions('watch'),
  ...pagingRuleOptions('', ' (overrides discovery)'),
];

/** The flags as the run gets them; --interval in seconds, --retry-delays in ms. */
export type BookingsWatchOptions = Values<[], typeof watchOptions>;

export const changesOptions = [
  option('--since <state-or-time>', 'a bookings watch --state FILE, an ISO time, or a duration ago (90m, 2h)', nonEmpty('--since')),
  option('--max-state <size>', 'the most memory the snapshot of a --since FILE may take (default 72M)', byteSizeOption),
  maxPageOption(),
  ...bookingFilterOptions('compare'),
  ...pagingRuleOptions('', ' (overrides discovery)'),
];

export type BookingsChangesOptions = Values<[], typeof changesOptions>;
