// The committed completion scripts, in real bash (with bash-completion and without it), zsh and fish:
// subcommands at every level, each command's options with the global ones, values (formats, profiles
// from the config, shells, event names, files and folders), and lines with URLs and other words that
// bash cuts at ':' or '='. Expected words come from the commander program and the contract, never
// from the scripts themselves.
//
// A missing shell skips its tests locally (the reason is in the title) and fails them in CI.
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wholeProgram as bookingProgram } from '../../src/command-tree';
import { allCommands, describeProgram, optionsAt, optionWords } from '../../src/completion/model';
import { OUTPUT_FORMATS } from '../../src/context';
import { EVENTS, SCENARIOS } from '../../src/webhook/events';
import { PROFILE_KEYS } from '../../src/config/types';
import { BOOKING_STATUSES } from '../../src/base/booking-statuses';
import { SHELLS } from '../../src/completion/shells';
import { COLON_FILE, COMPLETIONS_DIR, complete, makeSandbox, shellMissing, type Sandbox, type ShellName } from '../helpers/shell-harness';
import { skipNote } from '../helpers/skip';

const spec = describeProgram(await bookingProgram());
const commandAt = (...path: string[]) => allCommands(spec.root).find((c) => c.path.join(' ') === path.join(' '));
const subcommands = (...path: string[]) => commandAt(...path)?.commands.map((c) => c.name) ?? [];
const longOptions = (...path: string[]) => {
  const cmd = commandAt(...path);
  return cmd
    ? optionsAt(spec, cmd)
        .flatMap(optionWords)
        .filter((w) => w.startsWith('--'))
    : [];
};

const PROFILES = ['work', 'staging'];
const inCI = Boolean(process.env.CI) && process.env.CI !== 'false';

interface Case {
  line: string;
  /** The whole offer, in any order. */
  exactly?: string[];
  /** Words the contract promises, whatever else is offered. */
  includes?: string[];
  excludes?: string[];
}

const CASES: Case[] = [
  {
    line: 'booking ',
    exactly: subcommands(),
    includes: ['login', 'logout', 'whoami', 'bookings', 'event-types', 'api', 'webhook', 'sandbox', 'config', 'completion'],
  },
  { line: 'booking bookings ', exactly: subcommands('bookings'), includes: ['list', 'get'] },
  { line: 'booking webhook ', exactly: subcommands('webhook'), includes: ['verify', 'sign', 'listen', 'send'] },
  { line: 'booking config ', exactly: subcommands('config'), includes: ['path', 'list', 'get', 'set', 'unset'] },
  {
    line: 'booking bookings list --',
    exactly: longOptions('bookings', 'list'),
    includes: [
      '--status',
      '--limit',
      '--page-size',
      '--cursor',
      '--no-paginate',
      '--cursor-path',
      '--items-path',
      '--profile',
      '--output',
      '--json',
      '--fields',
      '--help',
    ],
  },
  { line: 'booking bookings ls --l', exactly: ['--limit'] },
  { line: 'booking --profile work bookings ', exactly: subcommands('bookings') },
  // Global options are accepted after the subcommand too: completion goes on after them.
  { line: 'booking bookings --json ', exactly: subcommands('bookings') },
  { line: 'booking bookings list --json --st', exactly: ['--status'] },
  { line: 'booking bookings list -o json --li', exactly: ['--limit'] },
  { line: 'booking bookings list --profile work --page', exactly: ['--page-size'] },
  { line: 'booking -o ', exactly: [...OUTPUT_FORMATS] },
  { line: 'booking bookings list --output ', exactly: [...OUTPUT_FORMATS] },
  { line: 'booking bookings list --output=', exactly: [...OUTPUT_FORMATS] },
  { line: 'booking --profile ', exactly: PROFILES },
  { line: 'booking event-types --profile ', exactly: PROFILES },
  { line: 'booking completion ', exactly: [...SHELLS] },
  { line: 'booking bookings list --status ', exactly: [...BOOKING_STATUSES] },
  { line: 'booking bookings list -s ', exactly: [...BOOKING_STATUSES] },
  { line: 'booking bookings list --status=c', exactly: ['confirmed', 'cancelled', 'completed'] },
  { line: 'booking help ', includes: ['bookings', 'webhook'], excludes: ['--json'] },
  { line: 'booking help bookings ', exactly: ['list', 'get', 'watch', 'changes'] },
  { line: 'booking help webhook l', exactly: ['listen'] },
  { line: 'booking bookings help ', exactly: ['list', 'get', 'watch', 'changes'] },
  { line: 'booking bookings help watch ', excludes: ['list', 'get', 'watch', 'changes'] },
  { line: 'booking webhook help l', exactly: ['listen'] },
  { line: 'booking config get ', exactly: [...PROFILE_KEYS] },
  { line: 'booking webhook send --event ', exactly: [...EVENTS] },
  { line: 'booking webhook verify --event ', exactly: [...EVENTS] },
  { line: 'booking webhook verify --secret-file ', includes: ['payload.json', 'secret.txt', 'captures'] },
  { line: 'booking webhook sign ', includes: ['payload.json', 'secret.txt'] },
  { line: 'booking webhook listen --save-dir ', includes: ['captures'], excludes: ['payload.json'] },
  { line: 'booking webhook send --scenario ', includes: [...Object.keys(SCENARIOS), 'payload.json', 'captures'] },
  { line: 'booking webhook send --scenario l', exactly: ['lifecycle'] },
  { line: 'booking bookings get ', exactly: [] },
  // Words with ':' (bash cuts words at ':' and '=', as COMP_WORDBREAKS says): URLs given as option
  // values or arguments count as one word, and a candidate for a word with ':' leaves it as typed
  // plus the rest, never the typed part twice.
  { line: 'booking --base-url http://127.0.0.1:4010 bookings ', exactly: subcommands('bookings') },
  { line: 'booking --base-url=http://127.0.0.1:4010 bookings ', exactly: subcommands('bookings') },
  { line: 'booking --base-url http://localhost webhook send --event ', exactly: [...EVENTS] },
  { line: 'booking --base-url=http://127.0.0.1:4010 -o ', exactly: [...OUTPUT_FORMATS] },
  { line: 'booking --base-url http://127.0.0.1:4010 bookings list --output=', exactly: [...OUTPUT_FORMATS] },
  { line: 'booking --base-url http://127.0.0.1:4010 config get base', exactly: ['baseUrl'] },
  { line: 'booking webhook send http://127.0.0.1:8787/ --ev', exactly: ['--event'] },
  { line: 'booking webhook send http://127.0.0.1:8787/ --event ', exactly: [...EVENTS] },
  { line: 'booking --base-url http://127.0.0.1:', exactly: [] },
  { line: 'booking webhook sign payload:', includes: [COLON_FILE] },
  { line: 'booking webhook sign payload:v', exactly: [COLON_FILE] },
];

function check(offered: string[] | undefined, c: Case): void {
  expect(offered, `no answer for "${c.line}"`).toBeDefined();
  if (c.exactly) expect([...offered!].sort()).toEqual([...new Set(c.exactly)].sort());
  for (const word of c.includes ?? []) expect(offered, `"${c.line}" should offer ${word}`).toContain(word);
  for (const word of c.excludes ?? []) expect(offered, `"${c.line}" should not offer ${word}`).not.toContain(word);
}

interface Variant {
  title: string;
  shell: ShellName;
  /** bash only: false runs bash as it is without the bash-completion package. */
  bashCompletion?: boolean;
}

const VARIANTS: Variant[] = [
  { title: 'bash', shell: 'bash' },
  { title: 'bash without bash-completion', shell: 'bash', bashCompletion: false },
  { title: 'zsh', shell: 'zsh' },
  { title: 'fish', shell: 'fish' },
];

function describeShell(v: Variant, body: (answers: () => Map<string, string[]>, box: () => Sandbox) => void): void {
  const missing = shellMissing(v.shell, { bashCompletion: v.bashCompletion });
  // In CI a missing shell fails (CI installs them); elsewhere its tests are skipped, saying why.
  const skipped = inCI ? undefined : missing;
  describe.skipIf(skipped !== undefined)(skipNote(v.title, skipped), () => {
    let answers: Map<string, string[]>;
    let box: Sandbox;
    beforeAll(() => {
      if (missing) throw new Error(`${missing}; CI installs it in .ci/run`);
      box = makeSandbox(PROFILES);
      answers = complete(
        v.shell,
        CASES.map((c) => c.line),
        box,
        { bashCompletion: v.bashCompletion },
      );
    }, 120_000);
    afterAll(() => box?.cleanup());
    body(
      () => answers,
      () => box,
    );
  });
}

for (const variant of VARIANTS) {
  describeShell(variant, (answers, box) => {
    for (const c of CASES) {
      it(`"${c.line}<TAB>"`, () => check(answers().get(c.line), c));
    }

    if (variant.title === 'zsh') {
      it('loads from $fpath under compinit without errors, and when sourced after it', () => {
        const script = [
          `fpath=(${COMPLETIONS_DIR} $fpath)`,
          'autoload -U compinit && compinit -u -D',
          'print -r -- "fpath:$_comps[booking]"',
          'autoload +X _booking',
          `source ${COMPLETIONS_DIR}/_booking`,
          'print -r -- "sourced:$_comps[booking]"',
        ].join('\n');
        const run = spawnSync('zsh', ['-f', '-c', script], { env: box().env, encoding: 'utf8' });
        expect(run.stderr).toBe('');
        expect(run.status).toBe(0);
        expect(run.stdout.split('\n')).toEqual(['fpath:_booking', 'sourced:_booking', '']);
      });
    }
  });
}
