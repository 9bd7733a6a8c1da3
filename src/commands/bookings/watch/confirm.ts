// A booking a poll's walk did not see is asked for by its uid before it is called removed. A list that
// shifts under paging (one deleted after page 1 is read, with offset cursors) skips a booking that was
// never removed: called removed, it was dropped from the snapshot and came back next poll as added,
// forwarded as a second booking.created, and a change made meanwhile was lost (review s34b, F1). Asked:
// a 404 (or, with --status, the booking now of another status) is a removal; anything else keeps it
// once, as the snapshot has it, and the next walk compares it, or, missing it again, removes it (a list
// that hides what the single booking still shows, as cancelled ones). The answer is not compared
// itself: a service's single booking may carry more fields than its list items (a change each time).
import { NotFoundError } from '../../../base/errors';
import type { HttpClient } from '../../../http/types';
import { scalarText } from '../../../output/json';
import { isPlainObject } from '../../../base/plain-object';
import { unwrapResource } from '../../shared/resource';

/**
 * The most bookings asked for in one poll: a shift skips about as many as left the list while it was
 * walked. More missing at once is a list that really shrank; the rest are removed unasked.
 */
export const MAX_CONFIRMED = 100;

/**
 * Whether the booking is still in the list watched, as GET /api/v1/bookings/{uid} answers; `unknown`
 * when it did not answer (a 5xx, a time-out). `status` is the walk's --status: a booking no longer of
 * it has left the list watched. A uid made from a booking's content (`#…`, no uid or id field) cannot
 * be asked.
 */
export async function stillListed(
  client: HttpClient,
  uid: string,
  status: string | undefined,
  signal?: AbortSignal,
): Promise<'listed' | 'removed' | 'unknown'> {
  if (uid.startsWith('#')) return 'removed';
  let body: unknown;
  try {
    const response = await client.get(`/api/v1/bookings/${encodeURIComponent(uid)}`, { signal });
    body = unwrapResource(response.json());
  } catch (err) {
    if (err instanceof NotFoundError) return 'removed';
    if (signal?.aborted) throw err;
    return 'unknown';
  }
  const now = isPlainObject(body) ? text(body.status) : '';
  return status === undefined || now === '' || now.toLowerCase() === status.toLowerCase() ? 'listed' : 'removed';
}

function text(value: unknown): string {
  return value === undefined || value === null || typeof value === 'object' ? '' : scalarText(value);
}
