import { defineCommand, option } from '../define';
import { pagingRuleOptions, pagingRules } from '../shared/paging-options';
import { intOption, nonEmpty } from '../../base/options';
import { runList } from '../shared/list-runner';

export const newCmdEventTypes = defineCommand({
  name: 'event-types',
  description: 'list your personal event types',
  options: [
    option('-L, --limit <n>', 'print at most N event types', intOption(1, 1_000_000_000)),
    // Where a listing that failed part-way says to resume from (as bookings list does).
    option('--cursor <cursor>', 'start at this cursor (or next-page URL)', nonEmpty('--cursor')),
    option('--no-paginate', 'fetch one page only; the next cursor goes to stderr'),
    ...pagingRuleOptions(),
  ],
  sendsRequests: true,
  examples: ['booking event-types', "booking event-types --jq '.[].slug'", 'booking event-types -o tsv --fields id,slug,title'],
  async run(opts, ctx) {
    // The endpoint takes no parameters; a limit is applied client-side and never sent as a page size.
    await runList(ctx, {
      path: '/api/v1/event-types',
      limit: opts.limit,
      sendLimit: false,
      cursor: opts.cursor,
      paginate: opts.paginate,
      ...pagingRules(opts),
    });
  },
});
