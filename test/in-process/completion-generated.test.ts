// completions/ is generated from the commander program: it must match a fresh generation (else run
// `npm run gen:completions`), and `booking completion <shell>` must print those very files. Also the
// conventions that turn option names into value kinds, and the hidden profile lister.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Argument, Command, Option } from 'commander';
import { wholeProgram as bookingProgram } from '../../src/command-tree';
import { completionFiles } from '../../src/completion/generate';
import { describeProgram } from '../../src/completion/model';
import { EVENTS } from '../../src/webhook/signature';
import { SHELLS } from '../../src/completion/shells';
import { runMain } from '../helpers/in-process';
import { COMPLETIONS_DIR, makeSandbox } from '../helpers/shell-harness';

const files = completionFiles(await bookingProgram());

describe('completions/', () => {
  for (const { shell, file, text } of files) {
    it(`${file} is what the program generates now (else: npm run build)`, () => {
      const committed = readFileSync(join(COMPLETIONS_DIR, file), 'utf8');
      expect(committed === text, `completions/${file} is stale for ${shell}: run npm run build`).toBe(true);
    });
  }
});

describe('booking completion <shell>', () => {
  for (const shell of SHELLS) {
    it(`prints the committed script for ${shell}, byte for byte`, async () => {
      const file = files.find((f) => f.shell === shell)!.file;
      const r = await runMain(['completion', shell]);
      expect(r.code).toBe(0);
      expect(r.stderr).toBe('');
      expect(r.stdoutBytes.equals(readFileSync(join(COMPLETIONS_DIR, file)))).toBe(true);
    });
  }

  it('rejects an unknown shell with exit 2 and one line naming the three', async () => {
    const r = await runMain(['completion', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
    for (const shell of SHELLS) expect(r.stderr).toContain(shell);
  });
});

describe('booking __complete profiles', () => {
  const box = makeSandbox(['work', 'staging']);
  afterAll(() => box.cleanup());

  it("lists the config's profiles, one a line, and is hidden from help", async () => {
    const r = await runMain(['__complete', 'profiles'], { env: { BOOKING_CONFIG_DIR: box.env.BOOKING_CONFIG_DIR } });
    expect(r).toMatchObject({ code: 0, stdout: 'work\nstaging\n', stderr: '' });
    expect((await runMain(['--help'])).stdout).not.toContain('__complete');
  });

  it('prints nothing, successfully, when there is no config', async () => {
    const r = await runMain(['__complete', 'profiles'], { env: { BOOKING_CONFIG_DIR: join(box.cwd, 'nowhere') } });
    expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});

describe('value kinds from option names', () => {
  const program = new Command('booking').option('--profile <name>', 'profile');
  program
    .command('hook')
    .addOption(new Option('--format <f>', 'format').choices(['a', 'b']))
    .option('--event <name>', 'event')
    .option('--body <file>', 'body')
    .option('--secret-file <path>', 'secret')
    .option('--request <capture...>', 'captures')
    .option('--save-dir <dir>', 'folder')
    .option('--cursor-path <path>', 'a dot path, not a file')
    .option('-F, --field <key=value>', 'repeatable', (v: string, p: string[]) => [...p, v], [])
    .argument('[file]', 'body')
    .addArgument(new Argument('<shell>').choices(['x', 'y']));
  const spec = describeProgram(program);
  const hook = spec.root.commands.find((c) => c.name === 'hook')!;
  const kind = (long: string) => hook.options.find((o) => o.long === long)?.value;

  it('follows choices, --profile, --event, <file>/<capture>/-file, <dir>/-dir', () => {
    expect(spec.globals.find((o) => o.long === '--profile')?.value).toEqual({ kind: 'profiles' });
    expect(kind('--format')).toEqual({ kind: 'choices', values: ['a', 'b'] });
    expect(kind('--event')).toEqual({ kind: 'choices', values: [...EVENTS] });
    for (const long of ['--body', '--secret-file', '--request']) expect(kind(long)).toEqual({ kind: 'file' });
    expect(kind('--save-dir')).toEqual({ kind: 'dir' });
    expect(kind('--cursor-path')).toEqual({ kind: 'none' });
    expect(hook.args.map((a) => a.value)).toEqual([{ kind: 'file' }, { kind: 'choices', values: ['x', 'y'] }]);
  });

  it('marks variadic and collected options repeatable', () => {
    expect(hook.options.find((o) => o.long === '--request')?.repeatable).toBe(true);
    expect(hook.options.find((o) => o.long === '--field')?.repeatable).toBe(true);
    expect(hook.options.find((o) => o.long === '--body')?.repeatable).toBe(false);
  });
});
