// The sandbox's documented defaults and option checks: small and dependency-free, so the `sandbox`
// command definition can show them in --help and validate flags without loading the server.

export const DEFAULT_API_KEY = 'sk_test_sandbox';
export const DEFAULT_WEBHOOK_SECRET = 'whsec_sandbox';
// Standard Webhooks keys are the base64 after whsec_, and "sandbox" is not base64: with --scheme
// standard the default is the base64 of "sandbox".
export const DEFAULT_STANDARD_SECRET = 'whsec_c2FuZGJveA==';

/** The default signing secret for a scheme (`booking sandbox --scheme`). */
export function defaultWebhookSecret(scheme: string | undefined): string {
  return scheme === 'standard' ? DEFAULT_STANDARD_SECRET : DEFAULT_WEBHOOK_SECRET;
}
export const DEFAULT_PORT = 4010;
export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_BOOKINGS = 120;
export const DEFAULT_SEED = '1';
export const DEFAULT_TICK_SECONDS = 2;

export const SHAPES = ['data-meta', 'bare-link', 'bookings-nextcursor', 'items-links', 'nested', 'entries-metadata'] as const;
export type ShapeName = (typeof SHAPES)[number];
export const DEFAULT_SHAPE: ShapeName = 'data-meta';

/** Why value cannot be a webhook URL, or undefined when it can. */
export function webhookUrlProblem(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return `invalid webhook URL "${value}": expected http://host[:port]/path.`;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return `invalid webhook URL "${value}": only http and https are supported.`;
  return undefined;
}
