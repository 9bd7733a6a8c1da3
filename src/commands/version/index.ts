// `booking version`, as gh has it beside `--version`: the same line, for the user who types the word.
// With -o json / --json / --jq it is a record ({"version": …}), as every command that prints one.
import type { Command } from 'commander';
import type { CommandDeps } from '../deps';
import { defineCommand } from '../define';

declare const __VERSION__: string;
const VERSION: string = typeof __VERSION__ === 'string' ? __VERSION__ : '0.0.0-dev';

const newCmdVersion = defineCommand<object>({
  name: 'version',
  description: 'print the version (as --version does)',
  examples: ['booking version', 'booking version --json'],
  async run(_opts, ctx) {
    const { globals } = ctx;
    if (globals.output === undefined && globals.jq === undefined && globals.fields === undefined) {
      ctx.io.stdout.write(`${VERSION}\n`);
      return;
    }
    const { writeRecord } = await import('../../output/index');
    await writeRecord(ctx, { version: VERSION });
  },
});

export function registerVersionCommand(program: Command, deps: CommandDeps): void {
  program.addCommand(newCmdVersion(deps));
}
