// `booking bookings …`: one line per subcommand, in help order (src/commands/tree.ts).
import { group } from '../tree';

export const bookings = group('list, show and watch bookings, and what changed since', {
  list: () => import('./list').then((m) => m.newCmdBookingsList),
  get: () => import('./get').then((m) => m.newCmdBookingsGet),
  watch: () => import('./watch/watch').then((m) => m.newCmdBookingsWatch),
  changes: () => import('./changes').then((m) => m.newCmdBookingsChanges),
});
