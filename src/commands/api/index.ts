import type { Command } from 'commander';
import type { CommandDeps } from '../deps';

// TODO: not built yet.
export function registerApiCommand(_program: Command, _deps: CommandDeps): void {}
