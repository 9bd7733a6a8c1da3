// --scheme and the age options of timestamped schemes, shared by the webhook commands (new objects for
// each command). The names come from a file with no imports: declaring them loads no crypto.
import { InvalidArgumentError } from 'commander';
import type { Context } from '../../../context';
import { UsageError } from '../../../base/errors';
import { calendarTime, durationOption } from '../../../base/options';
import type { AgeRule } from '../../../webhook/schemes/age';
import { DEFAULT_TOLERANCE_MS, SCHEME_NAMES } from '../../../webhook/schemes/names';
import { choice, option } from '../../define';

const SCHEMES_HELP = 'service is X-Service-Signature, cal Cal.com, standard Standard Webhooks';

/** --scheme for sign, send, listen and the sandbox: the scheme to sign or verify in. */
export function schemeOption(what: string) {
  return choice('--scheme <scheme>', `${what}: ${SCHEMES_HELP}`, SCHEME_NAMES);
}

/** --tolerance, --at and --ignore-age, for the commands that verify. */
export function ageOptions() {
  return [
    option(
      '--tolerance <duration>',
      'timestamped schemes (calendly, stripe, standard): the most a timestamp may differ from now (default 5m; 30s, 10m, 1h)',
      durationOption(7 * 24 * 3_600_000, 1000),
    ),
    option('--at <time>', 'judge timestamps as of this time (ISO 8601 or Unix seconds): an old capture as of when it arrived', timeOption),
    option('--ignore-age', 'do not check timestamps at all (a capture kept for later)'),
  ];
}

/** ISO 8601 (2026-11-25T09:12:03Z) or Unix seconds → milliseconds since the epoch. */
function timeOption(value: string): number {
  const ms = /^\d{1,12}$/.test(value.trim()) ? Number(value.trim()) * 1000 : calendarTime(value);
  if (ms === undefined || !Number.isFinite(ms))
    throw new InvalidArgumentError('expected a time: ISO 8601 such as 2026-11-25T09:12:03Z, or Unix seconds such as 1795597923.');
  return ms;
}

export interface AgeOptions {
  tolerance?: number;
  at?: number;
  ignoreAge?: boolean;
}

/** The age rule the options give (webhook/schemes/age.ts); --at and --ignore-age are alternatives. */
export function ageRule(opts: AgeOptions, ctx: Pick<Context, 'now'>): AgeRule {
  if (opts.at !== undefined && opts.ignoreAge)
    throw new UsageError('--at and --ignore-age are alternatives: --at checks the age as of a time, --ignore-age not at all.');
  return {
    toleranceMs: opts.tolerance ?? DEFAULT_TOLERANCE_MS,
    at: opts.at === undefined ? () => ctx.now().getTime() : () => opts.at!,
    atGiven: opts.at !== undefined,
    ignore: opts.ignoreAge ?? false,
  };
}
