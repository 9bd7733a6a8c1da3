import { Command, Option } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { intOption, nonEmpty } from '../../options';
import { runList } from '../list-runner';
import { examples } from '../../help';

export interface EventTypesOptions {
  limit?: number;
  paginate: boolean;
  cursorPath?: string;
  cursorParam?: string;
  cursorFromLast?: string;
  itemsPath?: string;
}

export function newCmdEventTypes(deps: CommandDeps, runF = runEventTypes): Command {
  return new Command('event-types')
    .description("list your personal event types")
    .option('-L, --limit <n>', 'print at most N event types', intOption(1, 1_000_000_000))
    .option('--no-paginate', 'fetch one page only')
    .addOption(new Option('--cursor-path <path>', 'dot path of the next cursor in the body').argParser(nonEmpty('--cursor-path')))
    .addOption(new Option('--items-path <path>', 'dot path of the items array in the body').argParser(nonEmpty('--items-path')))
    .addOption(new Option('--cursor-param <name>', 'query parameter that carries the cursor (default: cursor, or the convention\'s)').argParser(nonEmpty('--cursor-param')))
    .addOption(new Option('--cursor-from-last <field>', 'the next cursor is this field of the last item (Stripe style)').argParser(nonEmpty('--cursor-from-last')))
    .addHelpText('after', examples('booking event-types', 'booking event-types --jq \'.[].slug\'', 'booking event-types -o tsv --fields id,slug,title'))
    .action(async (opts: EventTypesOptions, cmd: Command) => {
      deps.setExitCode((await runF(opts, deps.context(cmd))) ?? 0);
    });
}

export async function runEventTypes(opts: EventTypesOptions, ctx: Context): RunResult {
  // The endpoint takes no parameters; a limit is applied client-side and never sent as a page size.
  await runList(ctx, {
    path: '/api/v1/event-types',
    limit: opts.limit,
    sendLimit: false,
    paginate: opts.paginate,
    cursorPath: opts.cursorPath,
    cursorParam: opts.cursorParam,
    cursorFromLast: opts.cursorFromLast,
    itemsPath: opts.itemsPath,
  });
}

export function registerEventTypesCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdEventTypes(deps));
}
