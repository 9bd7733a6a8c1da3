import { Command } from 'commander';
import type { CommandDeps, RunResult } from '../deps';
import type { Context } from '../../context';
import { UsageError } from '../../errors';
import { unwrapResource } from '../resource';
import { examples } from '../../help';

export interface BookingsGetOptions {
  uid: string;
}

export function newCmdBookingsGet(deps: CommandDeps, runF = runBookingsGet): Command {
  return new Command('get')
    .alias('view')
    .description('show one booking by its uid')
    .argument('<uid>', 'the booking\'s public uid')
    .addHelpText('after', examples('booking bookings get bk_5q7tf95he72spj', 'booking bookings view bk_5q7tf95he72spj --json uid,status,attendee.email', 'booking bookings get bk_5q7tf95he72spj --jq .attendee.name'))
    .action(async (uid: string, _opts: unknown, cmd: Command) => {
      deps.setExitCode((await runF({ uid }, deps.context(cmd))) ?? 0);
    });
}

/** The uid as one path segment: percent-encoded, and never a "." or ".." that a URL would resolve away. */
export function uidPath(uid: string): string {
  if (uid === '' || uid === '.' || uid === '..') throw new UsageError(`invalid booking uid "${uid}".`);
  return `/api/v1/bookings/${encodeURIComponent(uid)}`;
}

export async function runBookingsGet(opts: BookingsGetOptions, ctx: Context): RunResult {
  const path = uidPath(opts.uid);
  const client = await ctx.http();
  const [response, output] = await Promise.all([client.get(path, { signal: ctx.signal }), import('../../output/index')]);
  await output.writeRecord(ctx, unwrapResource(response.json()));
}
