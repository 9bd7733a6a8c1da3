import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { UsageError } from '../../errors';
import { unwrapResource } from '../resource';

export interface BookingsGetOptions {
  uid: string;
}

export const newCmdBookingsGet = defineCommand<BookingsGetOptions>({
  name: 'get',
  aliases: ['view'],
  description: 'show one booking by its uid',
  arguments: [['<uid>', "the booking's public uid"]],
  sendsRequests: true,
  examples: [
    'booking bookings get bk_5q7tf95he72spj',
    'booking bookings view bk_5q7tf95he72spj --json uid,status,attendee.email',
    'booking bookings get bk_5q7tf95he72spj --jq .attendee.name',
  ],
  run: runBookingsGet,
});

/** The uid as one path segment: percent-encoded, and never a "." or ".." that a URL would resolve away. */
function uidPath(uid: string): string {
  if (uid.trim() === '' || uid === '.' || uid === '..') throw new UsageError(`invalid booking uid "${uid}".`);
  return `/api/v1/bookings/${encodeURIComponent(uid)}`;
}

async function runBookingsGet(opts: BookingsGetOptions, ctx: Context): RunResult {
  const path = uidPath(opts.uid);
  const client = await ctx.http();
  const [response, output] = await Promise.all([client.get(path, { signal: ctx.signal }), import('../../output/index')]);
  await output.writeRecord(ctx, unwrapResource(response.json()));
}
