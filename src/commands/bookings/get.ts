import { defineCommand } from '../define';
import { UsageError } from '../../base/errors';
import { unwrapResource } from '../shared/resource';

export const newCmdBookingsGet = defineCommand({
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
  async run({ uid }, ctx) {
    const path = uidPath(uid);
    const client = await ctx.http();
    const [response, output] = await Promise.all([client.get(path, { signal: ctx.signal }), import('../../output/index')]);
    await output.writeRecord(ctx, unwrapResource(response.json()));
  },
});

/** The uid as one path segment: percent-encoded, and never a "." or ".." that a URL would resolve away. */
function uidPath(uid: string): string {
  if (uid.trim() === '' || uid === '.' || uid === '..') throw new UsageError(`invalid booking uid "${uid}".`);
  return `/api/v1/bookings/${encodeURIComponent(uid)}`;
}
