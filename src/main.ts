// Runs the CLI once and returns its exit code; bin/booking.js is the only place that exits.
import { describeError, ExitCode } from './base/errors';
import { systemIO } from './output/io';
import type { IOStreams } from './output/streams';
import { escapeControl } from './output/escape';
import { plainCommand } from './commands/plain';
import { TREE } from './commands/register';
import { refuseShapingOf } from './output/shaping';
import { runContext } from './run-context';

export interface MainDeps {
  io?: IOStreams;
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
}

export async function main(argv: string[], deps: MainDeps = {}): Promise<number> {
  const env = deps.env ?? process.env;
  // Every byte the run writes passes the output door (src/output/door.ts): key mask, escaper, failures.
  const io = deps.io ?? systemIO(env);
  // The key in the environment is masked from the first byte, whatever the command: one that never
  // sends it (webhook listen, verify) may still be handed it back in a body or a file.
  const envKey = env.BOOKING_API_KEY;
  if (envKey !== undefined && envKey.trim() !== '') io.maskSecret(envKey);
  const signal = deps.signal ?? new AbortController().signal;
  let exitCode: number = ExitCode.OK;
  try {
    // A line of plain words naming a command runs without commander (src/commands/plain.ts).
    const plain = await plainCommand(TREE, argv);
    if (plain) {
      const { definition, options, values, path } = plain;
      if (definition.printsText) refuseShapingOf(options, path, definition.printsText);
      return (await definition.run(values, runContext(options, { io, env, signal }, !definition.printsText))) ?? ExitCode.OK;
    }
    const [{ buildProgram }, { resolveJsonFlag }] = await Promise.all([import('./cli'), import('./base/json-flag')]);
    const program = await buildProgram({ io, env, signal, setExitCode: (c) => (exitCode = c), argv });
    if (argv.length === 0) {
      io.stdout.write(program.helpInformation());
      return ExitCode.OK;
    }
    await program.parseAsync(resolveJsonFlag(argv, program), { from: 'user' });
    return exitCode;
  } catch (err) {
    // Loaded here, not at the start: a plain line that succeeds never loads commander.
    const { CommanderError } = await import('commander');
    if (err instanceof CommanderError) {
      // Commander has already written its message (or the help) to stderr/stdout.
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return ExitCode.OK;
      if (err.exitCode === 0) return ExitCode.OK;
      return ExitCode.USAGE;
    }
    const { message, hint, exitCode: code } = describeError(err);
    // Escaped once more here (a no-op on text already escaped): no message can carry a raw control
    // or bidi character to the terminal, whatever built it.
    if (message) io.stderr.write(`error: ${escapeControl(message)}\n`);
    if (hint) io.stderr.write(`${hint.split('\n').map(escapeControl).join('\n')}\n`);
    if ((deps.env ?? process.env).BOOKING_DEBUG_STACK === '1' && err instanceof Error) io.stderr.write(`${err.stack}\n`);
    return code;
  }
}
