// `webhook listen` counts every copy of a body it holds against its in-flight budget (issue 33, item
// 8): 30 concurrent deliveries of 60 MiB (4 accepted, the rest answered 503) once peaked at 637 MB
// against the 256 MiB budget, and still at 430-476 MB on node 24 (~630 MB on node 20) while each
// accepted body was held whole. The target is the budget plus ~150 MB (410 MB). A body of a
// declared length now goes to its capture as it arrives and is verified on the way, so none is held
// whole: measured 145-155 MB on node 24 and 95-110 MB on node 20 (node 24 leaves more of node's
// socket chunks to the major collector, node 20 frees them in frequent minor ones). The bound, 300
// MB on every line, fails a return to holding the accepted bodies (four of them are 252 MB alone).
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BIN, cleanEnv, ROOT } from '../helpers/cli';

const SECRET = 'whsec_listen_memory';
const BOUND_MB = 300;

it.runIf(existsSync('/proc/self/status'))(
  `30 concurrent 60 MiB deliveries: peak RSS within ${BOUND_MB} MB, each accepted one saved, no partial capture left`,
  async () => {
    const dir = mkdtempSync(join(tmpdir(), 'booking-listen-mem-'));
    const child = spawn(process.execPath, [BIN, 'webhook', 'listen', '--port', '0', '--save-dir', join(dir, 'caps'), '-q', '-o', 'tsv'], {
      cwd: ROOT,
      env: cleanEnv({ BOOKING_WEBHOOK_SECRET: SECRET }),
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (c: Buffer) => {
          err += c;
          const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
          if (m) resolve(`${m[1]}/hooks`);
        });
        child.on('exit', () => reject(new Error(err)));
      });
      const body = Buffer.alloc(60 * 1024 * 1024, 'x');
      body.write('{"event":"booking.created","pad":"');
      body.write('"}', body.length - 2);
      const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
      const statuses = await Promise.all(
        Array.from(
          { length: 30 },
          () =>
            new Promise<number | string>((resolve) => {
              const req = request(url, {
                method: 'POST',
                headers: { 'content-length': body.length, 'x-service-event': 'booking.created', 'x-service-signature': signature },
              });
              req.on('response', (res) => {
                res.resume();
                res.on('end', () => resolve(res.statusCode ?? 0));
              });
              req.on('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
              req.end(body);
            }),
        ),
      );
      const peakKb = Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1]);
      expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(statuses.every((s) => s === 200 || s === 503)).toBe(true);
      expect(peakKb / 1024).toBeLessThan(BOUND_MB);
      child.kill('SIGINT');
      await new Promise((r) => child.on('close', r));
      const saved = readdirSync(join(dir, 'caps'));
      expect(saved.length).toBe(statuses.filter((s) => s === 200).length);
      expect(saved.every((f) => f.endsWith('.http'))).toBe(true);
    } finally {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGINT');
        await new Promise((r) => child.on('close', r));
      }
      rmSync(dir, { recursive: true, force: true });
    }
  },
  120_000,
);
