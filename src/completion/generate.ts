// The script's and the staleness test's one entry: the program in (command-tree.ts's wholeProgram),
// the three files' text out.
import type { Command } from 'commander';
import { describeProgram } from './model';
import { renderBash } from './bash';
import { renderFish } from './fish';
import { renderZsh } from './zsh';
import { COMPLETION_FILES, SHELLS, type Shell } from './shells';

function renderCompletions(program: Command): Record<Shell, string> {
  const spec = describeProgram(program);
  return { bash: renderBash(spec), zsh: renderZsh(spec), fish: renderFish(spec) };
}

/** The files under completions/ and their text, in SHELLS order. */
export function completionFiles(program: Command): { shell: Shell; file: string; text: string }[] {
  const texts = renderCompletions(program);
  return SHELLS.map((shell) => ({ shell, file: COMPLETION_FILES[shell], text: texts[shell] }));
}
