// `booking bookings changes --since STATE_OR_TIME`: the report of `bookings watch` as one run, for
// scripts and CI. From a --state file: what changed since it was saved (added, changed field by
// field, removed), the file left as it is. From a time (an ISO date, or a duration ago such as 2h):
// the bookings created or updated since then, by their created_at/updated_at. ndjson when piped.
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import { changesOptions } from './watch/options';

export const newCmdBookingsChanges = defineCommand({
  name: 'changes',
  description: 'what changed in the bookings since a watch --state file, or since a time',
  options: changesOptions,
  sendsRequests: true,
  notes:
    '\nThe events are those of bookings watch (type, uid, at, and booking, changes or last); from a time,\n' +
    'a booking created since is "added", one updated since is "updated" (what changed is not known).\n' +
    'ndjson when piped, a line per change on a terminal; exit 0 whether or not anything changed. The\n' +
    'state file is only read: run bookings watch --state FILE --once to move it on.',
  examples: [
    'booking bookings changes --since watch.state',
    'booking bookings changes --since 2026-11-28T09:00:00Z --jq .uid',
    'booking bookings changes --since 2h -s cancelled',
  ],
  run: (opts, ctx): RunResult => import('./watch/changes-run').then((m) => m.runBookingsChanges(opts, ctx)),
});
