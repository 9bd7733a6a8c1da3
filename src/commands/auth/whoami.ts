import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';
import { baseUrlText } from '../../config/keys';
import { hint } from '../../context';
import { unwrapResource } from '../resource';

export const newCmdWhoami = defineCommand<object>({
  name: 'whoami',
  description: 'show the owner of the key (GET /api/v1/me); profile, base URL and key source on stderr',
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
  hint(ctx, `profile: ${connection.profile}`);
  hint(ctx, `base URL: ${baseUrlText(connection.baseUrl)}`);
  hint(ctx, `key: ${maskKey(connection.apiKey)} (from ${connection.keySource === 'env' ? 'BOOKING_API_KEY' : 'config'})`);
}
