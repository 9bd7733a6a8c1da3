// Reads a completion script from the package's completions/ folder (the build writes it). The bundle runs from
// dist/, which sits beside completions/; from src/ (tests) the folder is a few levels further up.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FailureError } from '../base/errors';
import { COMPLETION_FILES, type Shell } from './shells';

export function completionScript(shell: Shell, from: string = import.meta.url): string {
  const file = COMPLETION_FILES[shell];
  let dir = dirname(fileURLToPath(from));
  for (;;) {
    const candidate = join(dir, 'completions', file);
    if (existsSync(candidate)) return readFileSync(candidate, 'utf8');
    const parent = dirname(dir);
    if (parent === dir) throw new FailureError(`completions/${file} is missing from the installed package.`);
    dir = parent;
  }
}
