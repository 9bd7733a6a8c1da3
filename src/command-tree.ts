// The program with every command, built with inert I/O: nothing runs. For the build (man pages and
// completion scripts, scripts/tree-files.mjs) and the tests that read the whole tree.
import type { Command } from 'commander';
import { buildProgram } from './cli';
import { testIO } from './output/io';

export function wholeProgram(): Promise<Command> {
  return buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
}
