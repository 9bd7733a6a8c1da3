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
import { registerVersionCommand } from './version/index';

type Register = (program: Command, deps: CommandDeps) => void;

/** The top-level command names each module registers, in help order. */
const MODULES: [names: string[], register: Register][] = [
  [['login', 'logout', 'whoami', 'profiles', 'auth'], registerAuthCommands],
  [['bookings'], registerBookingsCommands],
  [['event-types'], registerEventTypesCommand],
  [['api'], registerApiCommand],
  [['webhook'], registerWebhookCommands],
  [['sandbox'], registerSandboxCommand],
  [['config'], registerConfigCommands],
  [['completion', '__complete'], registerCompletionCommand],
  [['version'], registerVersionCommand],
];

/**
 * Every command; or, given the command the user named (`only`), just the module that defines it: a
 * run needs no other, and building ~25 commands it will not use is a measurable part of start-up.
 * A name no module defines (`help`, a typo) gets them all, for help and suggestions.
 */
export function registerCommands(program: Command, deps: CommandDeps, only?: string): void {
  const named = only === undefined ? undefined : MODULES.find(([names]) => names.includes(only));
  for (const [, register] of named ? [named] : MODULES) register(program, deps);
}
