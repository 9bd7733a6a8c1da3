import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { baseUrlText } from '../../config/keys';
import { hint } from '../../context';
import { unwrapResource } from '../shared/resource';
import type { KeySource } from '../../config/key-location';

export const newCmdWhoami = defineCommand({
  name: 'whoami',
  description: 'show the owner of the key (GET /api/v1/me); on a terminal, profile, base URL and where the key is on stderr',
  sendsRequests: true,
  examples: ['booking whoami', 'booking whoami --json', 'booking whoami --profile staging'],
  run: runWhoami,
});

/** The key as it may be shown: only its last 4 characters. */
export function maskKey(key: string): string {
  return key.length <= 4 ? '****' : `****${key.slice(-4)}`;
}

async function runWhoami(_opts: object, ctx: Context): RunResult {
  const connection = await ctx.connection();
  const client = await ctx.http();
  const [response, output] = await Promise.all([client.get('/api/v1/me', { signal: ctx.signal }), import('../../output/index')]);
  await output.writeRecord(ctx, unwrapResource(response.json()));
  // Context for a person, as gh prints its hints: a script reading stdout (--json, --jq) or capturing
  // stderr gets none of it.
  if (!ctx.io.stderrIsTTY) return;
  hint(ctx, `profile: ${connection.profile}`);
  hint(ctx, `base URL: ${baseUrlText(connection.baseUrl)}`);
  hint(ctx, `key: ${maskKey(connection.apiKey)} (${await keyStoreText(connection.keySource, ctx)})`);
}

/** Where a key came from, as whoami and auth status say it: env, keyring or file, with the detail. */
async function keyStoreText(source: KeySource, ctx: Context): Promise<string> {
  if (source === 'env') return 'env: BOOKING_API_KEY';
  if (source === 'keyring') return 'keyring';
  return `file: ${(await ctx.config()).path}`;
}
