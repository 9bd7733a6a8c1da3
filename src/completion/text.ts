// Quoting and naming shared by the renderers. Every word that reaches a script comes from the
// commander program, so it is quoted rather than trusted to be shell-safe.
import type { CommandSpec } from './model';

/** A POSIX single-quoted word (bash and zsh). */
export function sq(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A fish single-quoted word: only backslash and quote are special inside. */
export function fishQuote(text: string): string {
  return `'${text.replace(/[\\']/g, (c) => `\\${c}`)}'`;
}

/** "bookings list": how the scripts name a position in the command tree ("" is the top). */
export function pathKey(cmd: CommandSpec): string {
  return cmd.path.join(' ');
}

/** A shell function name for a command: _booking, _booking_bookings_list, _booking_event_types. */
export function functionName(program: string, cmd: CommandSpec): string {
  return ['', program, ...cmd.path].join('_').replace(/[^A-Za-z0-9_]/g, '_');
}

export function header(shell: string, program: string): string[] {
  return [
    `# ${shell} completion for ${program}.`,
    '# Generated from the commander program by scripts/tree-files.mjs (in npm run build):',
    `# do not edit by hand; \`${program} completion ${shell}\` prints this same text.`,
  ];
}
