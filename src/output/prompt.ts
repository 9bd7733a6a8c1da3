// Hidden prompts (API key, webhook secret) on a terminal. @inquirer/password handles raw mode and
// masking; it is imported only when a prompt is actually shown.
import type { IOStreams } from './streams';
import { InterruptedError, UsageError } from '../base/errors';
import { colors } from './style';

const plain = (text: string) => text;
/** inquirer's theme without colour, for --no-color (inquirer itself reads only NO_COLOR). */
const PLAIN = {
  prefix: { idle: '?', done: '\u2714' },
  style: { answer: plain, message: plain, error: plain, defaultAnswer: plain, help: plain, highlight: plain, key: plain },
};
/**
 * inquirer's own default look, spelled out: inquirer decides colour by itself (node's getColorDepth,
 * which says "no" under CI=true or a missing TERM) and would disagree with the rest of the output.
 */
const { bold, dim, red, green, blue, cyan } = colors;
// Each style takes its text alone: inquirer calls style.message(text, status), and a chalk function
// given two arguments joins them with a space, which printed "API key: idle", "loading", "done".
const COLOURED = {
  prefix: { idle: blue('?'), done: green('\u2714') },
  style: {
    answer: (text: string) => cyan(text),
    message: (text: string) => bold(text),
    error: (text: string) => red(`> ${text}`),
    defaultAnswer: (text: string) => dim(`(${text})`),
    help: (text: string) => dim(text),
    highlight: (text: string) => cyan(text),
    key: (text: string) => cyan(bold(`<${text}>`)),
  },
};

/** The prompt's look: inquirer's default when colour is on, plain text otherwise. */
export function promptTheme(color: boolean): typeof PLAIN {
  return color ? COLOURED : PLAIN;
}

/**
 * Asks for a secret without echoing it. Only on a terminal: elsewhere it is a usage error naming
 * `alternative` (the flag or env var that supplies the value non-interactively).
 */
export async function promptHidden(io: IOStreams, message: string, alternative: string): Promise<string> {
  if (!io.stdinIsTTY || !io.stderrIsTTY) {
    throw new UsageError(`no ${message.replace(/:\s*$/, '').toLowerCase()} given and no terminal to ask on; ${alternative}.`);
  }
  const { default: password } = await import('@inquirer/password');
  // Ctrl-D closes inquirer's readline without settling the prompt: nothing is left to wait on, and
  // node would exit. That is the user ending the input, so it ends the prompt like Ctrl-C.
  const ended = new AbortController();
  const onIdle = () => ended.abort();
  process.once('beforeExit', onIdle);
  try {
    return await password(
      { message, mask: false, theme: promptTheme(io.color) },
      {
        input: io.stdin as NodeJS.ReadableStream & { isTTY?: boolean },
        output: process.stderr,
        clearPromptOnDone: false,
        signal: ended.signal,
      },
    );
  } catch (err) {
    if ((err as Error)?.name === 'ExitPromptError' || (err as Error)?.name === 'AbortPromptError') throw new InterruptedError();
    throw err;
  } finally {
    process.off('beforeExit', onIdle);
  }
}
