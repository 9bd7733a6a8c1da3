// The shells we ship completion scripts for and the file each one lives in under completions/.
// Kept apart from the generator so the `completion` command can use it without loading commander walks.

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

/** File names follow each shell's lookup rules: bash-completion and zsh's fpath find them by name. */
export const COMPLETION_FILES: Record<Shell, string> = {
  bash: 'booking.bash',
  zsh: '_booking',
  fish: 'booking.fish',
};

/** The hidden command the scripts run to list profile names at completion time. */
export const PROFILES_COMMAND = ['__complete', 'profiles'] as const;
