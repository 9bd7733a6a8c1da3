// The schemes' names only, with no imports: command definitions load this at start-up (for --scheme's
// choices and help) without pulling in node:crypto.
export const SCHEME_NAMES = ['service', 'cal', 'calendly', 'stripe', 'standard'] as const;
export type SchemeName = (typeof SCHEME_NAMES)[number];

/** The vendors' libraries reject a timestamp older (or newer) than this by default: 5 minutes. */
export const DEFAULT_TOLERANCE_MS = 5 * 60_000;

/** What each scheme signs besides the body (its signed string), for sign's --id and --timestamp. */
export const SIGNED_BESIDES_BODY: Record<SchemeName, readonly ('id' | 'timestamp')[]> = {
  service: [],
  cal: [],
  calendly: ['timestamp'],
  stripe: ['timestamp'],
  standard: ['id', 'timestamp'],
};
