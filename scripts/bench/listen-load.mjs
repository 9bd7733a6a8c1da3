// @ts-check
// The load case of issue 14, measured: `webhook listen` receiving N concurrent deliveries of S MiB
// each on 127.0.0.1, with its peak resident memory (VmHWM) and what it left in its save folder.
// Not a test (it moves gigabytes); docs/webhooks.md reports a run.
//
//   node scripts/bench/listen-load.mjs [N=30] [S=63] [--max-saved SIZE] [--no-save] [--forward]
//
// --forward: listen forwards each authentic delivery to a receiver here that reads and drops it.
//
// Linux only (it reads /proc/<pid>/status). Needs `npm run build` first.
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const flag = args.indexOf('--max-saved');
const maxSaved = flag >= 0 ? args.splice(flag, 2)[1] : undefined;
/** @param {string} name */
const take = (name) => {
  const at = args.indexOf(name);
  if (at >= 0) args.splice(at, 1);
  return at >= 0;
};
const noSave = take('--no-save');
const forwardTo = take('--forward');
const count = Number(args[0] ?? 30);
const mib = Number(args[1] ?? 63);
const SECRET = 'whsec_load';
const BIN = fileURLToPath(new URL('../../bin/booking.js', import.meta.url));

const dir = mkdtempSync(join(tmpdir(), 'booking-listen-load-'));
const listenArgs = [BIN, 'webhook', 'listen', '--port', '0', '--save-dir', join(dir, 'caps'), '-q', '-o', 'tsv'];
if (maxSaved) listenArgs.push('--max-saved', maxSaved);
if (noSave) listenArgs.push('--no-save');
let forwarded = 0;
const app = createServer((req, res) => {
  req.on('data', (c) => (forwarded += c.length));
  req.on('end', () => res.writeHead(204).end());
});
if (forwardTo) {
  await new Promise((r) => app.listen(0, '127.0.0.1', () => r(undefined)));
  listenArgs.push('--forward-to', `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (app.address()).port}/`);
}
const child = spawn(process.execPath, listenArgs, {
  env: { ...process.env, BOOKING_WEBHOOK_SECRET: SECRET },
  stdio: ['ignore', 'ignore', 'pipe'],
});
let err = '';
const url = await new Promise((resolve, reject) => {
  child.stderr.on('data', (c) => {
    err += c;
    const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
    if (m) resolve(`${m[1]}/hooks`);
  });
  child.on('exit', () => reject(new Error(err)));
});

// One body for every sender: the sending side's memory is not what is measured.
const body = Buffer.alloc(mib * 1024 * 1024, 'x');
body.write('{"event":"booking.created","pad":"');
body.write('"}', body.length - 2);
const signature = `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;

const started = Date.now();
const statuses = await Promise.all(
  Array.from(
    { length: count },
    () =>
      new Promise((resolve) => {
        const req = request(url, {
          method: 'POST',
          headers: { 'content-length': body.length, 'x-service-event': 'booking.created', 'x-service-signature': signature },
        });
        req.on('response', (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode));
        });
        req.on('error', (e) => resolve(/** @type {NodeJS.ErrnoException} */ (e).code ?? 'error'));
        req.end(body);
      }),
  ),
);
const seconds = (Date.now() - started) / 1000;
const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
child.kill('SIGINT');
await new Promise((r) => child.on('exit', r));
app.close();

const files = noSave ? [] : readdirSync(join(dir, 'caps'));
const saved = files.reduce((n, f) => n + statSync(join(dir, 'caps', f)).size, 0);
const tally = {};
for (const s of statuses) tally[s] = (tally[s] ?? 0) + 1;
console.log(`${count} deliveries of ${mib} MiB in ${seconds.toFixed(1)} s: answers ${JSON.stringify(tally)}`);
console.log(`listen peak RSS: ${Math.round(Number(peak) / 1024)} MB`);
console.log(
  `saved: ${files.length} files, ${(saved / 1024 / 1024).toFixed(0)} MiB, ${files.filter((f) => statSync(join(dir, 'caps', f)).size === 0).length} empty`,
);
if (forwardTo) console.log(`forwarded: ${(forwarded / 1024 / 1024).toFixed(0)} MiB`);
if (err.includes('warning'))
  console.log(
    err
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('warning'))
      .slice(0, 3)
      .join('\n'),
  );
rmSync(dir, { recursive: true, force: true });
