// `booking bookings watch`: a live view of the bookings list, as `kubectl get -w` gives for pods. It
// walks the list (the same filters and paging as `bookings list`) every --interval and prints what
// changed since the last walk: bookings added, changed (field: old → new) and removed. With --state
// it resumes where the last run stopped; with --forward-to it turns each change into the signed
// delivery the service would have sent. Its flags are in options.ts, its run in run.ts.
import type { RunResult } from '../../deps';
import { defineCommand } from '../../define';
import { watchOptions } from './options';

export const newCmdBookingsWatch = defineCommand({
  name: 'watch',
  description: 'print bookings added, changed and removed, polling the list every --interval',
  options: watchOptions,
  sendsRequests: true,
  notes:
    '\nOn a terminal: a line per change, with the time of the poll. -o ndjson (or json): one JSON event per\n' +
    'line ({"type":"changed","uid":…,"changes":{"status":["pending","confirmed"]},"at":…}); in a pipe: tsv.\n' +
    'An event has type, uid, at, and booking (listed, added), changes (changed) or last (removed); --jq\n' +
    'and --fields apply to each. Naming booking fields (booking.status, changes.start) watches only those.\n' +
    '--state FILE is written (atomically) after each poll that changed something; a state file of another\n' +
    'base URL, profile or --status, or a damaged one, is refused (exit 2) and left as it is.\n' +
    '--forward-to sends booking.created, .confirmed, .rescheduled (with the old time), .cancelled,\n' +
    '.completed and no_show.flagged, signed, with X-Booking-Rebuilt: watch and an id made from the uid and\n' +
    'the change (--scheme cal|calendly|stripe|standard: signed and shaped as that sender does); each\n' +
    'waits in --state until the receiver answered 2xx (or --no-retry); --once exits 1 while any waits.\n' +
    'Polls send If-None-Match/If-Modified-Since when the service gave ETag/Last-Modified, and wait for\n' +
    'the reset when X-RateLimit-Remaining/RateLimit headers say the next poll would not fit.\n' +
    'A 429 answer is honoured (Retry-After, else a growing wait; a wait over about 24.9 days is capped, and\n' +
    'said). On Ctrl-C it saves --state first: nothing undelivered is lost (a --once run so cut short is\n' +
    'exit 130: it is a batch, not a watch).',
  runsUntilStopped: true,
  examples: [
    'booking bookings watch -s confirmed --interval 5s --initial -o ndjson',
    'booking bookings watch --jq \'select(.type == "changed") | .uid\'',
    'booking bookings watch --state watch.state --forward-to http://127.0.0.1:8787/hooks --secret-file secret.txt',
    'booking bookings watch --state watch.state --once --forward-to http://127.0.0.1:8787/hooks --secret-file whsec.txt --scheme standard',
  ],
  run: (opts, ctx): RunResult => import('./run').then((m) => m.runBookingsWatch(opts, ctx)),
});
