// Help as a user reads it: every command's own help lists its options and names the global ones in
// one line (`booking --help` lists them, as gh does), on stdout, exit 0; a usage error is one line on
// stderr, exit 2.
import { describe, expect, it } from 'vitest';
import { runMain } from '../helpers/in-process';

const LEAVES = [
  ['login'],
  ['whoami'],
  ['bookings', 'list'],
  ['bookings', 'get'],
  ['event-types'],
  ['api'],
  ['webhook', 'verify'],
  ['webhook', 'listen'],
  ['sandbox'],
  ['config', 'set'],
  ['completion'],
];

describe('help', () => {
  it.each(LEAVES)('%s --help: its options, then one line for the global ones', async (...words) => {
    const r = await runMain([...words, '--help']);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toMatch(new RegExp(`^Usage: booking ${words.join(' ')}`));
    expect(r.stdout).toContain('\nglobal options: see booking --help\n');
    expect(r.stdout).not.toContain('--base-url <url>');
    expect(r.stdout).toMatch(/-h, --help +show help\n/);
  });

  it('booking --help lists the global options', async () => {
    const r = await runMain(['--help']);
    for (const flag of [
      '--profile <name>',
      '--base-url <url>',
      '-o, --output <format>',
      '--json [fields]',
      '--jq <expression>',
      '--no-color',
      '--allow-http',
    ])
      expect(r.stdout).toContain(flag);
  });

  it('an unknown option of a leaf command: exit 2, one line on stderr, nothing on stdout', async () => {
    const r = await runMain(['bookings', 'list', '--bogus']);
    expect(r).toMatchObject({ code: 2, stdout: '', stderr: "error: unknown option '--bogus'\n" });
  });
});
