// The output matrix, generated from the command tree (the commander program src/cli.ts builds):
// every leaf command × every shaping form × {pipe, terminal without a pager, terminal with the default
// pager (`less -FRX`)}, and × {table, json} with PAGER='less -R' (formsOf), against a loopback service
// (and capture files, stdin, a webhook delivery) that echo the key and terminal sequences in every field.
// Each run must leak nothing (no run of the key or its encoded form, no URL password, no raw
// sequence, on stdout, stderr or what a pager received), and honour every shaping flag — or, for a
// command that prints text rather than records (CommandSpec.printsText), refuse it with exit 2.
// A command added later joins by itself: text commands are invoked from their declared arguments, and
// so is a GET leaf (a command that sends requests), against the service, which answers every other
// path under /api/v1/bookings/ with a booking, and /api/v1/bookings/<uid>/<name> with a list of them; any other command that prints records needs a row in
// RECORDS (how to give it data), and the test fails until it has one. The pager modes run in-process with a fake `less` on PATH that copies its stdin to a
// file (the same code path: BOOKING_PAGER/PAGER/less -FRX); two rows run the real less on a pty.
// With the default pager, --jq runs only for a command that paged another form: one that does not
// (a record, a stream) runs it as on the terminal row, which has it (a leak of jq on a terminal made
// in src/output/jq.ts fails the same 9 commands as before; 12 jq workers fewer: 9.7 -> 8.6 s of CPU,
// medians of five alternating runs). On a pipe, --jq runs for three commands (PIPED_JQ: a record, a
// list, a stream), not all: jq's pipe output is the same code for every command, and with its values
// written unescaped (src/output/jq-text.ts) the three fail (nine did before); 8.2-8.4 s of CPU (9.6-10.3
// before, alternating runs). With the default pager a command runs its JSON first, and its other forms
// only if that was paged: the 12 commands that paged no form (seen with all forms run) ran each as on
// the terminal row; a command that paged some forms but not JSON would lose its default-pager rows.
// Checked: jq-text's values unescaped fails the same 3 paging commands' default-pager rows as before
// (~0.25 s of CPU, 7.8-8.0 -> 7.1-8.1 s).
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli';
import { commandFacts, printsText } from '../../src/commands/define';
import { testIO } from '../../src/output/io';
import { main } from '../../src/main';
import { signatureHeader } from '../../src/webhook/signature';
import { cleanEnv, runCliTty } from '../helpers/cli';
import { HOSTILE_KEY, HOSTILE_TEXT, URL_PASSWORD, leaksIn, startHostileServer } from '../helpers/hostile-server';
import { until } from '../helpers/until';

const SECRET = 'whsec_matrix_0123456789';
const root = mkdtempSync(join(tmpdir(), 'booking-matrix-'));
const dirs = { config: join(root, 'config'), captures: join(root, 'captures'), bin: join(root, 'bin'), pager: join(root, 'paged') };
let server: { url: string; close(): Promise<void> };

/** What a run needs to know of the world it runs in. */
interface World {
  url: string;
  captures: string;
}

interface RecordRow {
  args(w: World): string[];
  /** A field every record of the command has (for --json FIELD and --fields FIELD). */
  field: string;
  stdin?: string;
  /** Runs until stopped (listen, sandbox): `during` feeds it, then it is aborted. */
  during?(stderr: () => string, stdout: () => string): Promise<void>;
  /** Shaping forms the command refuses with exit 2 (naming the flag) instead of honouring them. */
  refuses?: Form[];
}

/** How to give each command that prints records its data. */
const RECORDS: Record<string, RecordRow> = {
  'bookings list': { args: () => ['bookings', 'list'], field: 'uid' },
  'bookings get': { args: () => ['bookings', 'get', 'bk_1'], field: 'uid' },
  // Polls until stopped: --initial gives the first poll's bookings as events; stopped once they are out.
  'bookings watch': {
    args: () => ['bookings', 'watch', '--initial', '--interval', '2'],
    field: 'uid',
    during: async (_stderr, stdout) => until(() => stdout() !== '', 'a first record'),
  },
  'bookings changes': { args: () => ['bookings', 'changes', '--since', '2026-01-01T00:00:00Z'], field: 'uid' },
  'event-types': { args: () => ['event-types'], field: 'slug' },
  api: { args: () => ['api', '/api/v1/me'], field: 'name', refuses: ['table', 'tsv', 'csv', 'ndjson'] },
  whoami: { args: () => ['whoami'], field: 'name' },
  profiles: { args: () => ['profiles'], field: 'name' },
  'auth status': { args: () => ['auth', 'status'], field: 'name' },
  'config list': { args: () => ['config', 'list'], field: 'baseUrl' },
  'webhook verify': { args: (w) => ['webhook', 'verify', '--request', w.captures], field: 'authentic' },
  'webhook sign': { args: () => ['webhook', 'sign', '-'], field: 'signature', stdin: HOSTILE_TEXT },
  'webhook send': {
    args: (w) => ['webhook', 'send', `${w.url.replace('http://', `http://ada:${URL_PASSWORD}@`)}/hooks`, '--event', 'booking.created'],
    field: 'status',
  },
  'webhook listen': {
    args: (w) => ['webhook', 'listen', '--port', '0', '--no-save', '--forward-to', w.url.replace('http://', `http://ada:${URL_PASSWORD}@`)],
    field: 'event',
    during: async (stderr, stdout) => {
      await until(() => /Listening for deliveries on (http:\/\/\S+)\//.test(stderr()), 'listen to print its address');
      const at = /Listening for deliveries on (http:\/\/\S+)\//.exec(stderr())![1]!;
      await post(`${at}/hooks`, deliveryBody());
      await until(() => stdout() !== '', 'a first record');
    },
  },
  sandbox: {
    args: () => ['sandbox', '--port', '0', '--tick', '0', '-q'],
    field: 'port',
    during: async (_stderr, stdout) => until(() => stdout() !== '', 'a first record'),
  },
};

/**
 * The commands whose --jq runs on a pipe: one of each way jq is fed (one record, a list, a stream),
 * with the service's hostile text in their data (a pipe's jq output with its values not escaped fails
 * the three; of the other commands that failed it, each runs --jq on the terminal row).
 */
const PIPED_JQ = new Set(['whoami', 'bookings list', 'bookings watch']);

const FORMS = ['table', 'tsv', 'csv', 'json', 'ndjson', 'jq', 'json-fields', 'fields', 'fields-json', 'fields-typo', 'debug'] as const;
type Form = (typeof FORMS)[number];

function formArgs(form: Form, field: string): string[] {
  switch (form) {
    case 'table':
    case 'tsv':
    case 'csv':
    case 'json':
    case 'ndjson':
      return ['-o', form];
    // Both kinds of jq result in one run: a string (printed raw, as jq -r) and a value (JSON). Each
    // --jq run starts jq's WebAssembly on a worker thread (~0.2 s of CPU), so one run, not two.
    case 'jq':
      return ['--jq', '"jq-was-here", .'];
    case 'json-fields':
      return [`--json=${field}`];
    case 'fields':
      return ['--fields', field];
    case 'fields-json':
      return ['--fields', field, '-o', 'json'];
    case 'fields-typo':
      return ['--fields', 'nosuchfield'];
    case 'debug':
      return ['--debug', '-o', 'json'];
  }
}

const MODES = ['pipe', 'terminal', 'default-pager', 'less-R'] as const;
type Mode = (typeof MODES)[number];
/**
 * The forms each mode runs. PAGER='less -R' differs from the default pager only in which pager the
 * run starts (the same door, escaper and mask feed both): a table and JSON show it is honoured; every
 * form already goes through a pager in default-pager mode. (Each --jq run starts a jq worker: ~0.14 s
 * of CPU, most of this file's cost.)
 */
const formsOf = (mode: Mode): readonly Form[] => (mode === 'less-R' ? ['table', 'json'] : FORMS);

function modeEnv(mode: Mode, pagerOut: string): Record<string, string | undefined> {
  const fakeLess = { PATH: `${dirs.bin}:${process.env.PATH}`, MATRIX_PAGER_OUT: pagerOut, BOOKING_PAGER: undefined };
  if (mode === 'default-pager') return { ...fakeLess, PAGER: undefined };
  if (mode === 'less-R') return { ...fakeLess, PAGER: 'less -R' };
  return { BOOKING_PAGER: '' };
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  /** What the pager received; '' when none ran. */
  paged: string;
}

let runs = 0;
/** cleanEnv of what every run shares, made once (reading process.env for each of ~800 runs took 0.35 s). */
let baseEnv: Record<string, string> | undefined;
async function run(args: string[], mode: Mode, row?: RecordRow): Promise<Run> {
  const pagerOut = join(dirs.pager, `run-${runs++}`);
  const io = testIO({ tty: mode !== 'pipe', stdin: row?.stdin, columns: 200 });
  baseEnv ??= cleanEnv({
    BOOKING_CONFIG_DIR: dirs.config,
    BOOKING_API_KEY: HOSTILE_KEY,
    BOOKING_BASE_URL: server.url,
    BOOKING_WEBHOOK_SECRET: SECRET,
  });
  const env: Record<string, string> = { ...baseEnv };
  for (const [k, v] of Object.entries(modeEnv(mode, pagerOut))) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const stop = new AbortController();
  const done = main(args, { io, env, signal: stop.signal });
  if (row?.during) {
    const settled = await Promise.race([done.then(() => true), row.during(io.err, io.out).then(() => false)]);
    if (!settled) stop.abort();
  }
  const code = await done;
  const paged = existsSync(pagerOut) ? readFileSync(pagerOut, 'utf8') : '';
  return { code, stdout: io.out(), stderr: io.err(), paged };
}

function deliveryBody(): string {
  return JSON.stringify({ event: 'booking.created', data: { booking: { uid: HOSTILE_TEXT, title: HOSTILE_TEXT } } });
}

function post(url: string, body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { 'x-service-event': 'booking.created', 'x-service-signature': signatureHeader(SECRET, Buffer.from(body)) },
    });
    req.on('response', (res) => res.resume().on('end', resolve));
    req.on('error', reject);
    req.end(body);
  });
}

/** JSON values in `text`: one document, or one per line, or pretty ones one after another. */
function jsonValues(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') return [];
  try {
    return [JSON.parse(trimmed)];
  } catch {}
  const lines = trimmed.split('\n').filter((l) => l !== '');
  try {
    return lines.map((l) => JSON.parse(l));
  } catch {}
  return trimmed.split(/\n(?=[[{])/).map((chunk) => JSON.parse(chunk));
}

const objectsIn = (values: unknown[]) => values.flatMap((v) => (Array.isArray(v) ? v : [v])) as Record<string, unknown>[];

/** Checks that the run honoured the form: exit 0 and output of the form's shape. */
function expectHonoured(form: Form, field: string, r: Run, mode: Mode): void {
  const data = r.stdout + r.paged;
  const why = `${form}: ${r.stderr}`;
  if (form === 'fields-typo') {
    expect(r.code, why).toBe(2);
    expect(r.stderr).toContain('nosuchfield');
    return;
  }
  expect(r.code, why).toBe(0);
  expect(data.trim(), why).not.toBe('');
  if (form === 'json' || form === 'ndjson' || form === 'debug') expect(() => jsonValues(data), data).not.toThrow();
  if (form === 'ndjson') for (const line of data.trim().split('\n')) expect(() => JSON.parse(line), line).not.toThrow();
  // jq: each input gives the string raw on a line of its own, then the input as JSON.
  if (form === 'jq') {
    const lines = data.trim().split('\n');
    let values: unknown[] = [];
    expect(() => (values = jsonValues(lines.filter((l) => l !== 'jq-was-here').join('\n'))), data).not.toThrow();
    expect(values.length, data).toBeGreaterThan(0);
    expect(
      lines.filter((l) => l === 'jq-was-here'),
      data,
    ).toHaveLength(values.length);
  }
  if (form === 'json-fields' || form === 'fields-json') {
    const objects = objectsIn(jsonValues(data));
    expect(objects.length, data).toBeGreaterThan(0);
    for (const o of objects) expect(Object.keys(o), data).toEqual([field]);
  }
  // csv: a header row naming the fields, every record ended by CRLF.
  if (form === 'csv') {
    expect(data, why).toMatch(/^[^\r\n]*[a-z][^\r\n]*\r\n/);
    expect(data.endsWith('\r\n'), data).toBe(true);
  }
  // tsv: one column for a list; `key<TAB>value` lines for a single record.
  if (form === 'fields' && mode === 'pipe')
    for (const line of data.trim().split('\n')) expect(!line.includes('\t') || line.startsWith(`${field}\t`), line).toBe(true);
}

const TEXT_FLAGS: [string[], string][] = [
  [['-o', 'json'], '-o'],
  [['--json'], '--json'],
  [['--jq', '.'], '--jq'],
  [['--fields', 'x'], '--fields'],
];

/** Every leaf of the command tree, as its words. */
function leaves(cmd: Command, words: string[] = []): { words: string[]; cmd: Command }[] {
  if (cmd.commands.length === 0) return [{ words, cmd }];
  return cmd.commands.flatMap((sub) => leaves(sub, [...words, sub.name()]));
}

/** Arguments for a text command, from its declared ones: the first choice, else a placeholder. */
function derivedArgs(cmd: Command): string[] {
  return cmd.registeredArguments.filter((a) => a.required).map((a) => a.argChoices?.[0] ?? 'x');
}

/** A command's row: its own in RECORDS, or for a GET leaf one made from its declared arguments. */
function rowOf(name: string, words: string[], cmd: Command): RecordRow | undefined {
  if (printsText.has(cmd)) return undefined;
  if (RECORDS[name]) return RECORDS[name];
  if (commandFacts.get(cmd)?.sendsRequests) return { args: () => [...words, ...derivedArgs(cmd)], field: 'uid' };
  return undefined;
}

const program = await buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
const tree = leaves(program);

beforeAll(async () => {
  for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true, mode: 0o700 });
  // A `less` that copies what it is given to a file: the pager path as the user's less would run it.
  writeFileSync(join(dirs.bin, 'less'), '#!/bin/sh\ncat > "$MATRIX_PAGER_OUT"\n');
  chmodSync(join(dirs.bin, 'less'), 0o755);
  server = await startHostileServer();
  const body = Buffer.from(deliveryBody());
  const capture = (event: string) =>
    Buffer.concat([
      Buffer.from(
        `POST /hooks HTTP/1.1\r\nX-Service-Event: ${event}\r\nX-Service-Signature: ${signatureHeader(SECRET, body)}\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
  // A file name holding an OSC title and a bidi override: shown escaped, like any text from outside.
  writeFileSync(join(dirs.captures, 'a-\x1b]0;owned\x07-\u202e.http'), capture('booking.created'));
  writeFileSync(join(dirs.captures, 'b.http'), capture('booking.cancelled'));
  const setup = async (args: string[]) => {
    const r = await run(args, 'pipe');
    expect(r.code, r.stderr).toBe(0);
  };
  await setup(['config', 'set', 'baseUrl', server.url]);
  await setup(['config', 'set', 'apiKey', HOSTILE_KEY]);
});

afterAll(async () => {
  await server?.close();
  rmSync(root, { recursive: true, force: true });
});

describe('the command tree', () => {
  it('every command that prints records has a row, and every row names a command', () => {
    const records = tree.filter((l) => !printsText.has(l.cmd)).map((l) => l.words.join(' '));
    expect(
      tree.filter((l) => !printsText.has(l.cmd) && !rowOf(l.words.join(' '), l.words, l.cmd)).map((l) => l.words.join(' ')),
      'commands without a row in RECORDS',
    ).toEqual([]);
    expect(Object.keys(RECORDS).filter((name) => !records.includes(name))).toEqual([]);
    expect([...PIPED_JQ].filter((name) => !RECORDS[name])).toEqual([]);
  });
});

describe.each(MODES)('%s', (mode) => {
  for (const { words, cmd } of tree) {
    const name = words.join(' ');
    const row = rowOf(name, words, cmd);
    if (!row) {
      it(`${name}: refuses the shaping flags (prints text)`, async () => {
        const results = await Promise.all(TEXT_FLAGS.map(([flags]) => run([...words, ...derivedArgs(cmd), ...flags], mode)));
        for (const [i, [flags, flag]] of TEXT_FLAGS.entries()) {
          const r = results[i]!;
          expect(r.code, `${flags.join(' ')}: ${r.stderr}`).toBe(2);
          expect(r.stderr).toContain(flag);
          expect(leaksIn(r.stdout + r.stderr + r.paged)).toEqual([]);
        }
      });
      continue;
    }
    it(`${name}: every form honoured (or refused), nothing leaked`, async () => {
      const w: World = { url: server.url, captures: dirs.captures };
      // The forms run side by side (each in its own streams, with its own pager file and ports).
      const runForm = (form: Form) => run([...row.args(w), ...formArgs(form, row.field)], mode, row);
      // With the default pager, a command that pages none of its other forms (a record, a stream) runs
      // --jq exactly as the terminal row did, the pager settings unread: that run is not made again
      // (each --jq run starts a jq worker thread, ~0.1 s of CPU). A command that pages runs it here too.
      const jqAfter = mode === 'default-pager';
      // On a pipe (jq's results written raw and compact, the same code for every command), --jq runs
      // for PIPED_JQ only; the terminal row runs it for every command.
      let forms: Form[] = formsOf(mode).filter((form) => !((jqAfter || (mode === 'pipe' && !PIPED_JQ.has(name))) && form === 'jq'));
      // With the default pager, JSON first: a command that does not page it pages none of its forms
      // (a record, a stream), and runs each as the terminal row did; only its JSON is checked here.
      const first = jqAfter ? await runForm('json') : undefined;
      if (first && first.paged === '') forms = ['json'];
      const results = await Promise.all(forms.map((form) => (first && form === 'json' ? first : runForm(form))));
      if (jqAfter && results.some((r) => r.paged !== '')) {
        forms.push('jq');
        results.push(await runForm('jq'));
      }
      for (const [i, form] of forms.entries()) {
        const r = results[i]!;
        expect(leaksIn(r.stdout + r.stderr + r.paged), `${form}\n${r.stdout}${r.paged}\n${r.stderr}`).toEqual([]);
        if (row.refuses?.includes(form)) {
          expect(r.code, `${form}: ${r.stderr}`).toBe(2);
          expect(r.stderr).toMatch(/-o|--output/);
        } else expectHonoured(form, row.field, r, mode);
      }
    });
  }
});

describe('the real less on a terminal', () => {
  it.each([
    ['the default pager (less -FRX)', {}],
    ["PAGER='less -R'", { PAGER: 'less -R' }],
  ])('%s: bookings list shows nothing of the key, no raw sequence', async (_name, env) => {
    const r = await runCliTty(['bookings', 'list'], {
      env: {
        BOOKING_CONFIG_DIR: dirs.config,
        BOOKING_API_KEY: HOSTILE_KEY,
        BOOKING_BASE_URL: server.url,
        BOOKING_PAGER: undefined,
        ...env,
      },
      answers: [{ after: 'bk_4', text: 'q' }],
    });
    expect(r.code, r.output).toBe(0);
    expect(r.output).toContain('bk_4');
    expect(leaksIn(r.output)).toEqual([]);
  });
});
