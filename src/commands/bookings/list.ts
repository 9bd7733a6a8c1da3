import type { RunResult } from '../deps';
import { defineCommand, helpChoices, option, type OptionsOf } from '../define';
import { pagingRuleOptions, pagingRules } from '../shared/paging-options';
import type { Context } from '../../context';
import { intOption, nonEmpty } from '../../base/options';
import { runList } from '../shared/list-runner';
import { BOOKING_STATUSES } from '../../base/booking-statuses';
import { BOOKING_COLUMNS } from '../../output/booking-columns';

export const newCmdBookingsList = defineCommand({
  name: 'list',
  aliases: ['ls'],
  description: 'list bookings, following cursors automatically',
  options: [
    ...bookingFilterOptions('print'),
    option('--cursor <cursor>', 'start at this cursor (or next-page URL)', nonEmpty('--cursor')),
    option('--no-paginate', 'fetch one page only; the next cursor goes to stderr'),
    ...pagingRuleOptions('', ' (overrides discovery)'),
  ],
  sendsRequests: true,
  examples: [
    'booking bookings list -s confirmed -L 10',
    'booking bookings list --json uid,status,start',
    'booking bookings list -L 50 --jq \'.[] | select(.status == "cancelled") | .uid\'',
    'booking bookings list -o ndjson | wc -l',
  ],
  run: (opts, ctx): RunResult => runBookingsList(opts, ctx),
});

/** -s, -L and --page-size, which bookings watch shares; `verb` says what -L caps ("print", "watch"). */
export function bookingFilterOptions(verb: string) {
  return [
    // Choices for help and completion only: any other value is let through.
    helpChoices(
      option('-s, --status <status>', 'only bookings with this status; another value the service knows is passed on', nonEmpty('--status')),
      BOOKING_STATUSES,
    ),
    option('-L, --limit <n>', `${verb} at most N bookings in total, across pages`, intOption(1, 1_000_000_000)),
    option('--page-size <n>', 'bookings per request (query limit); default min(--limit, 100)', intOption(1, 10_000)),
  ];
}

export async function runBookingsList(opts: OptionsOf<typeof newCmdBookingsList>, ctx: Context): RunResult {
  await runList(ctx, {
    path: '/api/v1/bookings',
    query: { status: opts.status },
    limit: opts.limit,
    pageSize: opts.pageSize,
    cursor: opts.cursor,
    paginate: opts.paginate,
    ...pagingRules(opts),
    preferred: BOOKING_COLUMNS,
  });
}
