import { Command, Option } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { intOption, nonEmpty } from '../../options';
import { runList } from '../list-runner';
import { BOOKING_STATUSES } from '../../booking-statuses';
import { examples } from '../../help';

export interface BookingsListOptions {
  status?: string;
  limit?: number;
  pageSize?: number;
  cursor?: string;
  paginate: boolean;
  cursorPath?: string;
  cursorParam?: string;
  cursorFromLast?: string;
  itemsPath?: string;
}

export function newCmdBookingsList(deps: CommandDeps, runF = runBookingsList): Command {
  return new Command('list')
    .alias('ls')
    .description('list bookings, following cursors automatically')
    // Choices for help and completion only: the parser set after them lets any other value through.
    .addOption(
      new Option('-s, --status <status>', 'only bookings with this status; another value the service knows is passed on')
        .choices(BOOKING_STATUSES)
        .argParser(nonEmpty('--status')),
    )
    .option('-L, --limit <n>', 'print at most N bookings in total, across pages', intOption(1, 1_000_000_000))
    .option('--page-size <n>', 'bookings per request (query limit); default min(--limit, 100)', intOption(1, 10_000))
    .option('--cursor <cursor>', 'start at this cursor (or next-page URL)', nonEmpty('--cursor'))
    .option('--no-paginate', 'fetch one page only; the next cursor goes to stderr')
    .addOption(new Option('--cursor-path <path>', 'dot path of the next cursor in the body (overrides discovery)').argParser(nonEmpty('--cursor-path')))
    .addOption(new Option('--items-path <path>', 'dot path of the items array in the body (overrides discovery)').argParser(nonEmpty('--items-path')))
    .addOption(new Option('--cursor-param <name>', 'query parameter that carries the cursor (default: cursor, or the convention\'s)').argParser(nonEmpty('--cursor-param')))
    .addOption(new Option('--cursor-from-last <field>', 'the next cursor is this field of the last item (Stripe style)').argParser(nonEmpty('--cursor-from-last')))
    .addHelpText('after', examples('booking bookings list -s confirmed -L 10', 'booking bookings list --json uid,status,start', 'booking bookings list -L 50 --jq \'.[] | select(.status == "cancelled") | .uid\'', 'booking bookings list -o ndjson | wc -l'))
    .action(async (opts: BookingsListOptions, cmd: Command) => {
      deps.setExitCode((await runF(opts, deps.context(cmd))) ?? 0);
    });
}

export async function runBookingsList(opts: BookingsListOptions, ctx: Context): RunResult {
  await runList(ctx, {
    path: '/api/v1/bookings',
    query: { status: opts.status },
    limit: opts.limit,
    pageSize: opts.pageSize,
    cursor: opts.cursor,
    paginate: opts.paginate,
    cursorPath: opts.cursorPath,
    cursorParam: opts.cursorParam,
    cursorFromLast: opts.cursorFromLast,
    itemsPath: opts.itemsPath,
    preferred: 'bookings',
  });
}
