// What every command constructor receives (the gh `NewCmdX(factory, runF)` habit): a way to build
// the Context for the invoked command, and a way to report a non-zero exit code without exiting.
import type { Command } from 'commander';
import type { Context } from '../context';

export interface CommandDeps {
  /** Builds the Context from the invoked command's own and global options (false: it prints text, not records). */
  context(cmd: Command, printsRecords?: boolean): Context;
  /** The exit code main() returns when the command resolves (errors are thrown instead). */
  setExitCode(code: number): void;
}

/** The run function's result: an exit code, or nothing for 0. */
// biome-ignore lint/suspicious/noConfusingVoidType: a run function that returns nothing means exit 0
export type RunResult = Promise<number | void>;
