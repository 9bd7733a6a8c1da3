// Shared by the listen tests: `webhook listen` on a free port, run in-process (stopped by aborting) or
// as its own process (stopped by SIGINT).
import { spawn, type ChildProcess } from 'node:child_process';
import { runListen } from '../../src/commands/webhook/listen/listen';
import type { ListenOptions } from '../../src/commands/webhook/listen/options';
import { BIN, cleanEnv, ROOT } from './cli';
import { until } from './until';
import { makeCtx, type KitOptions } from './webhook-kit';

export const LISTEN_SECRET = 'whsec_listen';

const LISTENING = /Listening for deliveries on (http:\/\/127\.0\.0\.1:\d+)\//;

export interface Listener {
  url: string;
  out(): string;
  err(): string;
  /** Field `i` of each tsv line printed so far (0: the time, 1: the event, 2: the verdict…). */
  column(i: number): string[];
  stop(): Promise<number>;
}

export async function startListen(opts: Partial<ListenOptions>, kit: KitOptions = {}): Promise<Listener> {
  const abort = new AbortController();
  const ctx = makeCtx({ output: 'tsv', ...kit, signal: abort.signal });
  const done = runListen({ port: 0, host: '127.0.0.1', secret: LISTEN_SECRET, ...opts }, ctx);
  let ended = false;
  const settle = () => void (ended = true);
  done.then(settle, settle);
  await until(() => ended || LISTENING.test(ctx.io.err()), 'listen to print its address');
  const m = LISTENING.exec(ctx.io.err());
  if (!m) {
    await done; // its error, if it failed
    throw new Error(`listen did not start: ${ctx.io.err()}`);
  }
  const column = (i: number) =>
    ctx.io
      .out()
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t')[i] ?? '');
  return { url: `${m[1]}/webhooks`, out: ctx.io.out, err: ctx.io.err, column, stop: async () => (abort.abort(), (await done) ?? 0) };
}

export interface ListenProcess {
  child: ChildProcess;
  url: string;
  out(): string;
  err(): string;
  /** SIGINT, then the exit code. */
  stop(): Promise<number | null>;
}

/**
 * `booking webhook listen ARGS --port 0` as its own process, through bash so that `shell` (such as
 * `ulimit -f 8`) applies to it; resolves once it prints its address.
 */
export async function spawnListen(args: string[], env: Record<string, string>, shell = ''): Promise<ListenProcess> {
  const quoted = [process.execPath, BIN, 'webhook', 'listen', '--port', '0', ...args].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  const child = spawn('bash', ['-c', `${shell}${shell ? '; ' : ''}exec ${quoted}`], {
    cwd: ROOT,
    env: cleanEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      err += c;
      const m = /on (http:\/\/127\.0\.0\.1:\d+)\//.exec(err);
      if (m) resolve(`${m[1]}/hooks`);
    });
    void exited.then(() => reject(new Error(`listen exited: ${err}`)));
  });
  return { child, url, out: () => out, err: () => err, stop: () => (child.kill('SIGINT'), exited) };
}
