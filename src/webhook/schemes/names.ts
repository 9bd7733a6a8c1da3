// The schemes' names only, with no imports: command definitions load this at start-up (for --scheme's
// choices and help) without pulling in node:crypto.
export const SCHEME_NAMES = ['service', 'cal', 'calendly', 'stripe', 'standard'] as const;
export type SchemeName = (typeof SCHEME_NAMES)[number];

/** The vendors' libraries reject a timestamp older (or newer) than this by default: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 5 * 60_000;
