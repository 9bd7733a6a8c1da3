import type { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdBookingsList } from './list';
import { newCmdBookingsGet } from './get';
import { newCmdBookingsWatch } from './watch';

export function registerBookingsCommands(program: Command, deps: CommandDeps): void {
  program
    .command('bookings')
    .description('list, show and watch bookings')
    .addCommand(newCmdBookingsList(deps))
    .addCommand(newCmdBookingsGet(deps))
    .addCommand(newCmdBookingsWatch(deps));
}
