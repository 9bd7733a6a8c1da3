// A test that needs a tool the machine lacks (a shell, gnome-keyring, root) is skipped visibly, and
// says why once: in the title of the group of real tests it skips, never in a placeholder test.

/** `title`, and when `why` is given, why its tests are skipped: "zsh (skipped: zsh not installed)". */
export function skipNote(title: string, why: string | undefined): string {
  return why === undefined ? title : `${title} (skipped: ${why})`;
}
