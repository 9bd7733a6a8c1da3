import type { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { newCmdBookingsList } from './list';
import { newCmdBookingsGet } from './get';

export function registerBookingsCommands(program: Command, deps: CommandDeps): void {
  program
    .command('bookings')
    .description('list and show bookings')
    .addCommand(newCmdBookingsList(deps))
    .addCommand(newCmdBookingsGet(deps));
}
