import type { RunResult } from '../../deps';
import { defineCommand, option, type OptionsOf } from '../../define';
import type { Context } from '../../../context';
import { hint } from '../../../context';
import type { Connection } from '../../../config/types';
import { CliError, InterruptedError, NotFoundError, UsageError } from '../../../base/errors';
import { assertTransportAllowed } from '../../../config/transport';
import { readStream } from '../../../base/input';
import { promptHidden } from '../../../output/prompt';
import { apiKeyValue, baseUrlText, parseBaseUrl } from '../../../config/keys';
import { missingBaseUrl, present } from '../../../config/resolve';
import { loginStore, saveKey } from '../../../config/key-location';
import { describeOwner } from './owner';
import { keyringNote } from '../../../output/waiting';

/** `booking login`, and gh's spelling of it, `booking auth login`. */
const loginCommand = (invocation: string) =>
  defineCommand({
    name: 'login',
    printsText: 'only messages on stderr',
    description:
      'save an API key (and base URL) to the profile, after checking it with GET /api/v1/me; the key goes to the OS keyring when one answers',
    options: [
      option('--with-key', 'read the key from stdin instead of a hidden prompt', undefined, false),
      option('--no-verify', 'save the key without checking it'),
      option('--insecure-storage', 'save the key in the config file (mode 0600) instead of the OS keyring', undefined, false),
    ],
    sendsRequests: true,
    examples: [
      `${invocation} --base-url https://api.example.com`,
      `${invocation} --base-url https://api.example.com --with-key < key.txt`,
      `${invocation} --insecure-storage --with-key < key.txt`,
    ],
    // An arrow with its result type: runLogin's options are named from newCmdLogin (below), which
    // TypeScript could not type if it had to read runLogin first.
    run: (opts, ctx): RunResult => runLogin(opts, ctx),
  });

export const newCmdLogin = loginCommand('booking login');
export const newCmdAuthLogin = loginCommand('booking auth login');

/** --with-key, --no-verify and --insecure-storage, as booleans. */
export type LoginOptions = OptionsOf<typeof newCmdLogin>;

export async function runLogin(opts: LoginOptions, ctx: Context): RunResult {
  const store = await ctx.config();
  const name = ctx.globals.profile;
  // Read first: a malformed config fails here, before the user types a key that could not be saved.
  const saved = store.getProfile(name);
  const baseText = present(ctx.globals.baseUrl) ?? present(saved.baseUrl);
  if (baseText === undefined) throw missingBaseUrl(name);
  const baseUrl = parseBaseUrl(baseText);
  assertTransportAllowed(baseUrl, ctx.globals.allowHttp);
  // Before the key is typed: an unknown or conflicting store setting is a usage error now.
  loginStore(ctx.env, name, saved, opts.insecureStorage);
  const apiKey = apiKeyValue(await readKey(opts, ctx));
  const shown = baseUrlText(baseUrl);
  const scope = { env: ctx.env, signal: ctx.signal, name, profile: saved, baseUrl: shown, note: keyringNote(ctx) };

  // keySource only labels the candidate for the client; nothing is saved before the check passes.
  const owner = opts.verify ? await checkKey({ profile: name, baseUrl, apiKey, keySource: 'file' }, ctx) : undefined;
  const where = await saveKey(store, scope, apiKey, opts.insecureStorage);
  // A warning, not a hint: -q keeps it, since the key is now in plain text where it was not asked to be.
  if (where.notice) ctx.io.stderr.write(`warning: ${where.notice}\n`);
  const stored = where.store === 'keyring' ? 'the OS keyring' : store.path;
  if (opts.verify) hint(ctx, `Logged in to ${shown} (profile ${name})${owner ? ` as ${owner}` : ''}; key saved in ${stored}.`);
  else hint(ctx, `Saved the key for ${shown} (profile ${name}) in ${stored}, without checking it.`);
  warnEnvKey(ctx, 'set in the environment and wins over the saved key while it is set.');
}

async function readKey(opts: LoginOptions, ctx: Context): Promise<string> {
  if (opts.withKey) return (await readStream(ctx.io.stdin)).toString('utf8');
  if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
    throw new UsageError('no terminal to ask for the API key on: pipe it in with --with-key (booking login --with-key < key.txt).');
  }
  return promptHidden(ctx.io, 'API key:', 'use --with-key to read it from stdin');
}

/** GET /api/v1/me with the candidate key: the owner's description, or the client's typed error. */
async function checkKey(connection: Connection, ctx: Context): Promise<string | undefined> {
  const { createHttpClient } = await import('../../../http/client');
  const client = createHttpClient({ connection, globals: ctx.globals, io: ctx.io, signal: ctx.signal, env: ctx.env });
  try {
    const response = await client.get('/api/v1/me', { signal: ctx.signal });
    return describeOwner(response.json());
  } catch (err) {
    if (!(err instanceof CliError) || err instanceof InterruptedError) throw err;
    // A 404 that already names the fix (a base URL ending in /api/v1) keeps it.
    const advice =
      err instanceof NotFoundError && err.hint
        ? err.hint
        : err.exitCode === 3
          ? 'check the key and the base URL.'
          : 'check the base URL, or save the key unchecked with --no-verify.';
    const message = `${err.message.replace(/\.$/, '')}; the key was not saved.`;
    // The same class (AuthError, NotFoundError…), so callers and tests can tell them apart as before.
    if (err.constructor === CliError) throw new CliError(message, err.exitCode, advice);
    throw new (err.constructor as new (message: string, hint?: string) => CliError)(message, advice);
  } finally {
    await client.close();
  }
}

/** A warning (not a hint: -q keeps it) that BOOKING_API_KEY overrides what login/logout changed. */
export function warnEnvKey(ctx: Context, what: string): void {
  if (present(ctx.env.BOOKING_API_KEY) !== undefined) ctx.io.stderr.write(`warning: BOOKING_API_KEY is ${what}\n`);
}
