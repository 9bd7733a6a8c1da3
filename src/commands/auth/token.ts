// `booking auth token`: the key this run would use (BOOKING_API_KEY, the keyring, the file), on
// stdout for a script: `curl -H "Authorization: Bearer $(booking auth token)"`. gh has the same.
import type { RunResult } from '../deps';
import { defineCommand } from '../define';
import type { Context } from '../../context';

export const newCmdAuthToken = defineCommand({
  name: 'token',
  description: "print the profile's API key on stdout, for scripts (a warning on stderr when stdout is a terminal)",
  // The key alone, one line: a format or a field list would mean nothing (exit 2, src/output/shaping.ts).
  printsText: 'the key alone',
  notes:
    '\nThe key is looked for as every command does: BOOKING_API_KEY, then the OS keyring, then the config file.\nExit 3 when the profile has no key (or no base URL).',
  examples: [
    'booking auth token',
    'curl -H "Authorization: Bearer $(booking auth token)" https://api.example.com/api/v1/me',
    'booking auth token --profile staging | pbcopy',
  ],
  run: runToken,
});

async function runToken(_opts: object, ctx: Context): RunResult {
  // Not masked: printing it is the point. The door masks BOOKING_API_KEY from the first byte, so the
  // key goes out through its one unmasked write.
  const { apiKey } = await ctx.connection();
  if (ctx.io.stdoutIsTTY)
    ctx.io.stderr.write(
      'warning: this prints the API key in clear; it stays in the terminal and its scrollback. Pipe it where it is needed instead.\n',
    );
  ctx.io.writeKey(apiKey);
}
