// Hidden prompts (API key, webhook secret) on a terminal. @inquirer/password handles raw mode and
// masking; it is imported only when a prompt is actually shown.
import type { IOStreams } from './io';
import { InterruptedError, UsageError } from './errors';

const plain = (text: string) => text;
/** inquirer's theme without colour, for --no-color (inquirer itself reads only NO_COLOR). */
const PLAIN = {
  prefix: { idle: '?', done: '\u2714' },
  style: { answer: plain, message: plain, error: plain, defaultAnswer: plain, help: plain, highlight: plain, key: plain },
};

/**
 * Asks for a secret without echoing it. Only on a terminal: elsewhere it is a usage error naming
 * `alternative` (the flag or env var that supplies the value non-interactively).
 */
export async function promptHidden(io: IOStreams, message: string, alternative: string): Promise<string> {
  if (!io.stdinIsTTY || !io.stderrIsTTY) {
    throw new UsageError(`no ${message.replace(/:\s*$/, '').toLowerCase()} given and no terminal to ask on; ${alternative}.`);
  }
  const { default: password } = await import('@inquirer/password');
  try {
    return await password(
      { message, mask: false, ...(io.color ? {} : { theme: PLAIN }) },
      { input: io.stdin as NodeJS.ReadableStream & { isTTY?: boolean }, output: process.stderr, clearPromptOnDone: false },
    );
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError') throw new InterruptedError();
    throw err;
  }
}
