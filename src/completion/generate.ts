// One entry point for the script and the staleness test: the program in, the three files' text out.
import type { Command } from 'commander';
import { buildProgram } from '../cli';
import { testIO } from '../io';
import { describeProgram } from './model';
import { renderBash } from './bash';
import { renderFish } from './fish';
import { renderZsh } from './zsh';
import { COMPLETION_FILES, SHELLS, type Shell } from './shells';

function renderCompletions(program: Command): Record<Shell, string> {
  const spec = describeProgram(program);
  return { bash: renderBash(spec), zsh: renderZsh(spec), fish: renderFish(spec) };
}

/** The real program, built with inert I/O: only its shape is read, nothing runs. */
export function bookingProgram(): Command {
  return buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
}

/** The files under completions/ and their text, in SHELLS order. */
export function completionFiles(program: Command): { shell: Shell; file: string; text: string }[] {
  const texts = renderCompletions(program);
  return SHELLS.map((shell) => ({ shell, file: COMPLETION_FILES[shell], text: texts[shell] }));
}
