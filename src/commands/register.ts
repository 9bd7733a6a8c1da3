// Every command, in the order `booking --help` lists them. Each noun's module owns its commands.
import type { Command } from 'commander';
import type { CommandDeps } from './deps';
import { registerAuthCommands } from './auth/index';
import { registerBookingsCommands } from './bookings/index';
import { registerEventTypesCommand } from './event-types/index';
import { registerApiCommand } from './api/index';
import { registerWebhookCommands } from './webhook/index';
import { registerSandboxCommand } from './sandbox/index';
import { registerConfigCommands } from './config/index';
import { registerCompletionCommand } from './completion/index';

export function registerCommands(program: Command, deps: CommandDeps): void {
  registerAuthCommands(program, deps); // login, logout, whoami
  registerBookingsCommands(program, deps);
  registerEventTypesCommand(program, deps);
  registerApiCommand(program, deps);
  registerWebhookCommands(program, deps);
  registerSandboxCommand(program, deps);
  registerConfigCommands(program, deps);
  registerCompletionCommand(program, deps);
}
