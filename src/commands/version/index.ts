// `booking version`, as gh has it beside `--version`: the same line, for the user who types the word.
// Text, as gh's: -o, --json, --jq and --fields are refused (exit 2) rather than turned into a record.
import { defineCommand } from '../define';

declare const __VERSION__: string;
const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

export const newCmdVersion = defineCommand({
  name: 'version',
  description: 'print the version (as --version does)',
  printsText: 'the version line',
  examples: ['booking version', 'booking --version'],
  async run(_opts, ctx) {
    ctx.io.stdout.write(`${VERSION}\n`);
  },
});
