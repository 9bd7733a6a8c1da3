// `webhook listen` counts every copy of a body it holds against its in-flight budget (issue 33, item
// 8): 30 concurrent deliveries of 60 MiB (4 accepted, the rest answered 503) once peaked at 637 MB
// against the 256 MiB budget, and still at 430-476 MB on node 24 (~630 MB on node 20) while each
// accepted body was held whole. The target is the budget plus ~150 MB (410 MB). A body of a
// declared length now goes to its capture as it arrives and is verified on the way, so none is held
// whole. With --no-save --forward-to the bodies to forward were held in memory (462 MB on node 24,
// 625 MB on node 20); they now go to a private temporary folder as they arrive and are forwarded
// from it, and the folder is gone at stop. The bound, 300 MB on every line, fails a return to
// holding the accepted bodies (four of them are 240 MiB alone).
// Five senders, not the thirty: five are what it takes to pass the budget (300 MiB against
// 256), and the one refused gives its room back, so four are accepted and in flight together, as with
// thirty; the other 25 were 1.5 GB sent and dropped for nothing this test holds. Measured with five:
// 90-92 MB on node 20 and 112-119 MB on node 24 (both ways). Simulated: every body held whole
// (intake.ts) 379-383 MB on node 20 and 370-407 MB on node 24, both cases failing; --no-save's bodies
// to forward held (no spool folder) 375 MB on node 20.
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { createHmac } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';
import { until } from '../helpers/until';

const SECRET = 'whsec_listen_memory';
const BOUND_MB = 300;
const SENDERS = 5;

/** The one delivery every sender sends (60 MiB) and its signature: made once for both cases. */
let made: { body: Buffer; signature: string } | undefined;
function delivery(): { body: Buffer; signature: string } {
  if (made) return made;
  const body = Buffer.alloc(60 * 1024 * 1024, 'x');
  body.write('{"event":"booking.created","pad":"');
  body.write('"}', body.length - 2);
  made = { body, signature: `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}` };
  return made;
}

/** `p`, or a failure naming `what` after `ms` (so that the test's own message is seen, not vitest's timeout). */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`waited ${ms / 1000} s for ${what}`)), ms);
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

describe.runIf(existsSync('/proc/self/status'))(`${SENDERS} concurrent 60 MiB deliveries`, () => {
  it.each(['saved', 'forwarded with --no-save'] as const)(
    `%s: peak RSS within ${BOUND_MB} MB, each accepted one saved or forwarded whole, no file left behind`,
    async (how) => {
      // What the run is doing, with the seconds since its start: a run that overstays says where.
      const t0 = performance.now();
      const phases: string[] = [];
      const phase = (what: string) => phases.push(`${((performance.now() - t0) / 1000).toFixed(1)} s ${what}`);
      const dir = mkdtempSync(join(tmpdir(), 'booking-listen-mem-'));
      // The forward target reads each body and counts its bytes.
      const forwarded: number[] = [];
      const app = createServer((req, res) => {
        let n = 0;
        req.on('data', (c: Buffer) => (n += c.length)).on('end', () => (forwarded.push(n), res.end()));
      });
      await new Promise<void>((r) => app.listen(0, '127.0.0.1', r));
      const { port } = app.address() as { port: number };
      const where = how === 'saved' ? ['--save-dir', join(dir, 'caps')] : ['--no-save', '--forward-to', `http://127.0.0.1:${port}/in`];
      // Its own temporary folder: what a run leaves there is seen.
      mkdirSync(join(dir, 'tmp'));
      const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', ...where, '-q', '-o', 'tsv'], {
        cwd: ROOT,
        env: cleanEnv({ BOOKING_WEBHOOK_SECRET: SECRET, TMPDIR: join(dir, 'tmp') }),
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      try {
        let err = '';
        phase('listen started');
        const url = await within(
          new Promise<string>((resolve, reject) => {
            child.stderr.on('data', (c: Buffer) => {
              err += c;
              const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
              if (m) resolve(`${m[1]}/hooks`);
            });
            child.on('exit', () => reject(new Error(err)));
          }),
          20_000,
          "listen's address",
        );
        const { body, signature } = delivery();
        phase('sending');
        // Where each sender is, for the message of a run where one is never answered (the runs that
        // overstayed on node 24 were not that, but listen's stop below): the test then fails saying so. Every
        // way a request can end settles it (an answer cut before its end, a connection closed
        // unanswered), so that each shows in the statuses checked below rather than as a hang.
        const where: string[] = Array(SENDERS).fill('sending');
        const answers = Promise.all(
          Array.from(
            { length: SENDERS },
            (_, i) =>
              new Promise<number | string>((resolve) => {
                const settle = (outcome: number | string) => {
                  if (where[i]!.startsWith('settled')) return;
                  where[i] = `settled ${outcome} at ${((performance.now() - t0) / 1000).toFixed(1)} s`;
                  resolve(outcome);
                };
                const req = request(url, {
                  method: 'POST',
                  headers: { 'content-length': body.length, 'x-service-event': 'booking.created', 'x-service-signature': signature },
                });
                req.on('finish', () => where[i] === 'sending' && (where[i] = 'body sent'));
                req.on('response', (res) => {
                  where[i] = `answered ${res.statusCode} at ${((performance.now() - t0) / 1000).toFixed(1)} s`;
                  res.resume();
                  res.on('end', () => settle(res.statusCode ?? 0));
                  res.on('error', (e: NodeJS.ErrnoException) => settle(`${res.statusCode} cut: ${e.code ?? e.message}`));
                  res.on('close', () => settle(`${res.statusCode} closed before its end`));
                });
                req.on('error', (e: NodeJS.ErrnoException) => settle(e.code ?? 'error'));
                req.on('close', () => setImmediate(() => settle('closed unanswered')));
                req.end(body);
              }),
          ),
        );
        let stuck: NodeJS.Timeout | undefined;
        const statuses = await Promise.race([
          answers,
          new Promise<never>((_, reject) => {
            stuck = setTimeout(
              () => {
                const open = where.flatMap((w, i) => (w.startsWith('settled') ? [] : [`#${i} ${w}`]));
                reject(new Error(`senders never answered: ${open.join(', ')}; ${phases.join(', ')}; listen's stderr: ${err.slice(-500)}`));
              },
              Math.max(1_000, 110_000 - (performance.now() - t0)),
            );
          }),
        ]).finally(() => clearTimeout(stuck));
        phase('all answered');
        const accepted = statuses.filter((s) => s === 200).length;
        // Each forward comes after its answer: the peak is read once they are all in.
        // How long the forwards take is not what this test holds listen to (1.8 GB of them, from 30
        // senders, took over 20 s on a loaded 2-core machine): that they all arrive whole is.
        if (how !== 'saved') await until(() => forwarded.length === accepted, 'the forwards', 60_000);
        const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
        expect(accepted).toBeGreaterThanOrEqual(1);
        expect(statuses.filter((s) => s !== 200 && s !== 503)).toEqual([]);
        expect(peakKb / 1024).toBeLessThan(BOUND_MB);
        // Stopped as by Ctrl-C, it ends with exit 0. This wait is where the runs on node 24 that overstayed
        // hung, every sender long answered: listen's process.exit() deadlocked with a background compile
        // (bin/booking.js endWhenDone).
        child.kill('SIGINT');
        phase('listen stopping');
        await within(new Promise((r) => child.on('close', r)), 15_000, 'listen to stop after SIGINT');
        phase('listen stopped');
        expect(child.exitCode).toBe(0);
        if (how === 'saved') {
          const saved = readdirSync(join(dir, 'caps'));
          expect(saved.length).toBe(accepted);
          expect(saved.every((f) => f.endsWith('.http'))).toBe(true);
        } else {
          expect(forwarded).toEqual(Array(accepted).fill(body.length));
          expect(existsSync(join(dir, 'caps'))).toBe(false);
        }
        expect(readdirSync(join(dir, 'tmp'))).toEqual([]);
      } catch (e) {
        // The phases and their times, beside whatever failed.
        throw new Error(`${(e as Error).message} (${phases.join(', ')})`);
      } finally {
        app.close();
        if (child.exitCode === null && child.signalCode === null) {
          child.kill('SIGKILL');
          await new Promise((r) => child.on('exit', r));
        }
        rmSync(dir, { recursive: true, force: true });
      }
    },
    150_000,
  );
});
