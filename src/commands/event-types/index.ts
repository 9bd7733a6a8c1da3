import type { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import { defineCommand, option } from '../define';
import { pagingRuleOptions, pagingRules, type PagingRuleOptions } from '../paging-options';
import type { Context } from '../../context';
import { intOption } from '../../options';
import { runList } from '../list-runner';

interface EventTypesOptions extends PagingRuleOptions {
  limit?: number;
  paginate: boolean;
}

const newCmdEventTypes = defineCommand<EventTypesOptions>({
  name: 'event-types',
  description: 'list your personal event types',
  options: [
    option('-L, --limit <n>', 'print at most N event types', intOption(1, 1_000_000_000)),
    option('--no-paginate', 'fetch one page only'),
    ...pagingRuleOptions(),
  ],
  sendsRequests: true,
  examples: ['booking event-types', "booking event-types --jq '.[].slug'", 'booking event-types -o tsv --fields id,slug,title'],
  run: runEventTypes,
});

async function runEventTypes(opts: EventTypesOptions, ctx: Context): RunResult {
  // The endpoint takes no parameters; a limit is applied client-side and never sent as a page size.
  await runList(ctx, {
    path: '/api/v1/event-types',
    limit: opts.limit,
    sendLimit: false,
    paginate: opts.paginate,
    ...pagingRules(opts),
  });
}

export function registerEventTypesCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdEventTypes(deps));
}
