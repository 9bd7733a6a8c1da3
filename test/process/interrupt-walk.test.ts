// Ctrl-C for every command (issue 33's class: every loop over input a user sizes sees the abort
// signal). Walks the command tree: each leaf gets a row saying how to keep it busy (a service that
// never answers, a big HAR file of deliveries, stdin that keeps coming, a server it runs) and what Ctrl-C
// then ends it with, or why it has no such input (`instant`). Each busy run is sent SIGINT once it is
// under way and must exit with its code within a second. A command added later fails this test until
// it has a row. docs/security.md's "Ctrl-C, per command" table says the same.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Command } from 'commander';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli';
import { serve } from '../../src/sandbox/core';
import { testIO } from '../../src/output/io';
import { signedHar } from '../helpers/webhook-kit';
import { interruptWhenBusy } from '../helpers/interrupt';

const SECRET = 'whsec_walk_0123456789';
const KEY = 'sk_test_walk_0123456789';
const dir = mkdtempSync(join(tmpdir(), 'booking-walk-'));
const har = join(dir, 'deliveries.har');

interface World {
  /** A service that takes every request and never answers; `asked` counts them. */
  hang: string;
  asked(): number;
}

interface Busy {
  args(w: World): string[];
  /** Whether the run is under way (it then waits on, or works through, its input). */
  busy(w: World, out: { stdout: string; stderr: string; reading: boolean }): boolean;
  /** The exit Ctrl-C gives (130, or 0 for what runs until stopped by design). */
  code?: number;
  /** stdin fed without end, as a producer that never stops. */
  endlessStdin?: boolean;
  stdin?: string;
}

const asked = (w: World) => w.asked() > 0;
const printed = (_w: World, o: { stdout: string }) => o.stdout.includes('\n');
const reading = (_w: World, o: { reading: boolean }) => o.reading;

/** Every leaf: how to keep it busy, or why it has no input to be busy with. */
const ROWS: Record<string, Busy | { instant: string }> = {
  // The key from stdin, checked against the service (GET /api/v1/me).
  login: { args: () => ['login', '--with-key'], busy: asked, stdin: KEY },
  'auth login': { args: () => ['auth', 'login', '--with-key'], busy: asked, stdin: KEY },
  whoami: { args: () => ['whoami'], busy: asked },
  'bookings list': { args: () => ['bookings', 'list'], busy: asked },
  'bookings get': { args: () => ['bookings', 'get', 'bk_1'], busy: asked },
  'bookings watch': { args: () => ['bookings', 'watch'], busy: asked, code: 0 },
  'bookings changes': { args: () => ['bookings', 'changes', '--since', '2h'], busy: asked },
  'event-types': { args: () => ['event-types'], busy: asked },
  api: { args: () => ['api', '/api/v1/bookings', '--paginate'], busy: asked },
  'webhook verify': { args: () => ['webhook', 'verify', '--request', har], busy: printed },
  'webhook sign': { args: () => ['webhook', 'sign', '-'], busy: reading, endlessStdin: true },
  'webhook send': { args: (w) => ['webhook', 'send', `${w.hang}/hooks`, '--event', 'booking.created'], busy: asked },
  'webhook listen': {
    args: () => ['webhook', 'listen', '--port', '0', '--no-save'],
    busy: (_w, o) => o.stderr.includes('Listening'),
    code: 0,
  },
  sandbox: { args: () => ['sandbox', '--port', '0'], busy: (_w, o) => /http:\/\/127\.0\.0\.1:\d+/.test(o.stdout + o.stderr), code: 0 },
  logout: { instant: 'removes a saved key: the config file (bounded, src/config/safe-file.ts) and the keyring helper, killable' },
  'auth logout': { instant: 'as logout' },
  profiles: { instant: 'reads the config file only' },
  'auth status': { instant: 'reads the config file only' },
  'auth token': { instant: 'reads the config file or the keyring only' },
  'config path': { instant: 'prints a path' },
  'config list': { instant: 'reads the config file only' },
  'config get': { instant: 'reads the config file only' },
  'config set': { instant: 'writes one setting' },
  'config unset': { instant: 'removes one setting' },
  completion: { instant: 'prints a script' },
  '__complete profiles': { instant: 'reads the config file only' },
  version: { instant: 'prints the version' },
  help: { instant: 'prints help' },
  'auth help': { instant: 'prints help' },
  'bookings help': { instant: 'prints help' },
  'config help': { instant: 'prints help' },
  'webhook help': { instant: 'prints help' },
};

function leaves(cmd: Command, words: string[] = []): string[] {
  if (cmd.commands.length === 0) return [words.join(' ')];
  return cmd.commands.flatMap((sub) => leaves(sub, [...words, sub.name()]));
}

const program = await buildProgram({ io: testIO(), env: {}, signal: new AbortController().signal, setExitCode: () => {} });
const tree = leaves(program);

describe('Ctrl-C, per command', () => {
  let hang: { url: string; close(): Promise<void> };
  let count = 0;
  const held: { destroy(): void }[] = [];
  beforeAll(async () => {
    hang = await serve((req) => {
      count++;
      held.push(req.socket);
    });
    // One HAR file of 20,000 signed deliveries (a folder of 5,000 captures before: each file cost up to
    // a millisecond of CPU to write; batch-interrupt holds a folder's loop). The run is sent SIGINT at
    // its first output, ~220 verdicts in, and stops ~50 later; it verifies ~10,000 a second. With
    // verify's loops deaf to the signal it verifies them all and exits 0, which fails the row.
    const body = '{"id":"evt_1","event":"booking.created","data":{"booking":{"uid":"bk_1"}}}';
    writeFileSync(har, signedHar(body, SECRET, 20_000));
  }, 60_000);
  afterAll(async () => {
    for (const s of held) s.destroy();
    await hang.close();
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('every command has a row', () => {
    expect(tree.filter((name) => !ROWS[name])).toEqual([]);
  });

  for (const name of tree) {
    const row = ROWS[name];
    if (!row || 'instant' in row) continue;
    it(`${name}: exit ${row.code ?? 130} within a second of Ctrl-C`, async () => {
      const before = count;
      const w: World = { hang: hang.url, asked: () => count - before };
      const config = mkdtempSync(join(dir, 'config-'));
      const r = await interruptWhenBusy(row.args(w), {
        env: { BOOKING_CONFIG_DIR: config, BOOKING_BASE_URL: hang.url, BOOKING_API_KEY: KEY, BOOKING_WEBHOOK_SECRET: SECRET },
        busy: (out) => row.busy(w, out),
        stdin: row.stdin,
        endlessStdin: row.endlessStdin,
      });
      expect(r.afterSigint, `never busy: ${r.stderr}`).toBeDefined();
      expect(r.code, r.stderr).toBe(row.code ?? 130);
      expect(r.afterSigint).toBeLessThan(1_000);
    }, 30_000);
  }
});
